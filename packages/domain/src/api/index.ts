// The public API's contract (issue 13): request and answer shapes, error codes, the list of calls.
export * from './answers.js';
export * from './calls.js';
export * from './codes.js';
export * from './errors.js';
export * from './register.js';

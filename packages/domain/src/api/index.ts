// The public API's contract (issue 13): request and answer shapes, error codes, the list of calls.
// Made of the rules' schemas (../search.ts, ../validatePayload.ts, ../register.ts, …); no rule imports it.
export * from './answers.js';
export * from './calls.js';
export * from './codes.js';
export * from './errors.js';
export * from './refusalReason.js';

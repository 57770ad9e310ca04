// The public surface of @ros/domain. Each module owns one concept of the specification.
export * from './validity.js';
export * from './prefill.js';
export * from './search.js';

// The public surface of @ros/domain. Each module owns one concept of the specification.

export * from './api/index.js';
export * from './appPaths.js';
export * from './attachments.js';
export * from './birthNumber.js';
export * from './bounds.js';
export * from './conditions.js';
export * from './contact.js';
export * from './coverage.js';
export * from './dates.js';
export * from './fields.js';
export * from './form.js';
export * from './formCodes.js';
export * from './legalTexts/index.js';
export * from './limits.js';
export * from './messages.js';
export * from './monthYear.js';
export * from './prefill.js';
export * from './refusal.js';
export * from './requestStatus.js';
export * from './search.js';
export * from './sections.js';
export * from './text.js';
export * from './uiTiming.js';
export * from './validatePayload.js';
export * from './validity.js';
export * from './values.js';

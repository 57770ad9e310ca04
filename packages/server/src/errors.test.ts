import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.js';

describe('ApiError', () => {
  it('captures no stack for a client error (answered, never logged), and keeps one for a 5xx', () => {
    const refused = new ApiError(429, 'RATE_LIMITED', 'Too many requests: try again later');
    // The stack is only the first line ("Error: message"): no frame was captured.
    expect(refused.stack?.split('\n')).toHaveLength(1);
    const failed = new ApiError(500, 'INTERNAL_ERROR', 'Something failed');
    expect(failed.stack?.split('\n').length).toBeGreaterThan(1);
    // The global limit is left as it was.
    expect(Error.stackTraceLimit).toBeGreaterThan(0);
    expect(new Error('x').stack?.split('\n').length).toBeGreaterThan(1);
  });
});

import { describe, expect, it } from 'vitest';
import { isMessageKey, MESSAGE_KEYS } from './messages.js';

describe('message keys', () => {
  it('are the 18 keys of the spec, each once', () => {
    expect(MESSAGE_KEYS).toHaveLength(19);
    expect(new Set(MESSAGE_KEYS).size).toBe(19);
    expect(isMessageKey('maxlength')).toBe(true);
    expect(isMessageKey('birthNumberInvalidDay')).toBe(true);
    expect(isMessageKey('minlength')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { once } from './once.js';

describe('once', () => {
  it('makes the value on the first call only, and not before', () => {
    let made = 0;
    const value = once(() => ({ n: ++made }));
    expect(made).toBe(0);
    const first = value();
    expect(value()).toBe(first);
    expect(made).toBe(1);
  });
});

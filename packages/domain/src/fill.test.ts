import { describe, expect, it } from 'vitest';
import { fill } from './fill.js';

describe('fill', () => {
  it('puts each value in its placeholder, numbers as text, every occurrence', () => {
    expect(fill('{a} and {b}, {a} again', { a: 'x', b: 2 })).toBe('x and 2, x again');
  });
  it('leaves a placeholder without a value, also one named like an inherited property', () => {
    expect(fill('{missing} {constructor} {toString}', {})).toBe('{missing} {constructor} {toString}');
  });
  it('puts a value in as it is (no placeholder inside a value is filled)', () => {
    expect(fill('{a}', { a: '{b}', b: 'no' })).toBe('{b}');
  });
});

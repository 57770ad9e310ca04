import { describe, expect, it } from 'vitest';
import { czechDate, pragueTime } from './time.js';

describe("the console's times in Prague", () => {
  it('winter and summer time, across both changes of 2026', () => {
    // 29 March 2026: 02:00 CET becomes 03:00 CEST (01:00 UTC).
    expect(pragueTime('2026-03-29T00:59:00.000Z')).toBe('29.03.2026 01:59');
    expect(pragueTime('2026-03-29T01:00:00.000Z')).toBe('29.03.2026 03:00');
    // 25 October 2026: 03:00 CEST becomes 02:00 CET (01:00 UTC); 02:30 happens twice.
    expect(pragueTime('2026-10-25T00:30:00.000Z')).toBe('25.10.2026 02:30');
    expect(pragueTime('2026-10-25T01:30:00.000Z')).toBe('25.10.2026 02:30');
    expect(pragueTime('2026-10-25T02:00:00.000Z')).toBe('25.10.2026 03:00');
    // A day and a year that differ from UTC's; midnight as 00, never 24.
    expect(pragueTime('2026-12-31T23:30:00.000Z')).toBe('01.01.2027 00:30');
    expect(pragueTime('2026-07-01T22:00:00Z')).toBe('02.07.2026 00:00');
  });

  it('what is not a time or a date is shown as nothing', () => {
    expect(pragueTime('')).toBe('');
    expect(pragueTime('yesterday')).toBe('');
    expect(czechDate('1990-07-05')).toBe('05.07.1990');
    expect(czechDate('1990-02-30')).toBe('');
    expect(czechDate(null)).toBe('');
  });
});

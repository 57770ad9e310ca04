import { describe, expect, it } from 'vitest';
import { newRequestRefusal } from './refusal.js';

const base = {
  today: '2026-11-26',
  validUntil: null,
  lastRequestOn: null,
  renewalWindowDays: 90,
  repeatRequestDays: 30,
};

describe('newRequestRefusal', () => {
  it('is null without a certificate beyond the window and without a recent request', () => {
    expect(newRequestRefusal(base)).toBeNull();
    // Exactly 90 days ahead is inside the window.
    expect(newRequestRefusal({ ...base, validUntil: '2027-02-24' })).toBeNull();
  });

  it('names the renewal window with the end of validity and the first day to apply', () => {
    expect(newRequestRefusal({ ...base, validUntil: '2027-02-25' })).toEqual({
      rule: 'renewal-window',
      validUntil: '2027-02-25',
      from: '2026-11-27',
    });
  });

  it('names a recent request with its day and the end of the repeat window', () => {
    expect(newRequestRefusal({ ...base, lastRequestOn: '2026-11-20' })).toEqual({
      rule: 'repeat-request',
      filedOn: '2026-11-20',
      until: '2026-12-20',
    });
  });

  it('puts the certificate first when both apply', () => {
    expect(newRequestRefusal({ ...base, validUntil: '2028-01-01', lastRequestOn: '2026-11-20' })?.rule).toBe(
      'renewal-window',
    );
  });
});

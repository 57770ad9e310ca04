import { describe, expect, it } from 'vitest';
import {
  ACCESS_CODE_ALPHABET,
  formatAccessCode,
  mayChangeStatus,
  normalizeAccessCode,
  parseStatusFragment,
  REQUEST_STATUSES,
  statusPagePath,
} from './requestStatus.js';

describe('request statuses (issue 26)', () => {
  it('a decided request stays decided; nothing goes back to new', () => {
    for (const decided of ['issued', 'refused', 'withdrawn'] as const)
      for (const to of REQUEST_STATUSES) expect(mayChangeStatus(decided, to)).toBe(false);
    for (const from of REQUEST_STATUSES) expect(mayChangeStatus(from, 'new')).toBe(false);
    expect(mayChangeStatus('new', 'in_progress')).toBe(false);
    expect(mayChangeStatus('documents_needed', 'in_progress')).toBe(true);
  });
});

describe('the access code', () => {
  it('is typable: no 0, O, 1, I or l in its alphabet', () => {
    expect(ACCESS_CODE_ALPHABET).toHaveLength(32);
    expect(ACCESS_CODE_ALPHABET).not.toMatch(/[01OIl]/);
  });
  it('is read in any case, with dashes and spaces, and refused with a character outside the alphabet', () => {
    expect(normalizeAccessCode(' abcd-efgh jkmn ')).toBe('ABCDEFGHJKMN');
    expect(normalizeAccessCode('ABCD-EFGH-JKM0')).toBeNull();
    expect(normalizeAccessCode('ABCD-EFGH-JKMI')).toBeNull();
    expect(normalizeAccessCode('ABCD-EFGH-JKM')).toBeNull();
    expect(formatAccessCode('ABCDEFGHJKMN')).toBe('ABCD-EFGH-JKMN');
  });
  it("the link's fragment carries the reference and the code, read back whatever the case", () => {
    const path = statusPagePath('en', 'ROS-2026-000001', 'ABCDEFGHJKMN');
    expect(path).toBe('/request-status?lang=en#ROS-2026-000001/ABCDEFGHJKMN');
    expect(parseStatusFragment('#ros-2026-000001/abcd-efgh-jkmn')).toEqual({
      reference: 'ROS-2026-000001',
      code: 'ABCDEFGHJKMN',
    });
    for (const bad of [
      '',
      '#',
      '#ROS-2026-000001',
      '#ROS-2026-1/ABCDEFGHJKMN',
      '#ROS-2026-000001/ABCDEFGHJKMN/x',
      '#%E0',
    ])
      expect(parseStatusFragment(bad)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import {
  ACCESS_CODE_ALPHABET,
  CORRECTION_STATUSES,
  correctionCheck,
  correctionStatuses,
  currentCertificate,
  formatAccessCode,
  type HistoryStep,
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

describe('correcting a decision (issue 38)', () => {
  it('only a decided request is corrected, to any status but new', () => {
    expect(CORRECTION_STATUSES).toEqual(REQUEST_STATUSES.filter((s) => s !== 'new'));
    for (const from of REQUEST_STATUSES) {
      const decided = ['issued', 'refused', 'withdrawn'].includes(from);
      expect(correctionStatuses(from), from).toEqual(decided ? CORRECTION_STATUSES : []);
      for (const to of REQUEST_STATUSES) {
        const check = correctionCheck(from, to);
        if (!decided) expect(check, `${from} -> ${to}`).toBe('notDecided');
        else if (to === 'new' || to === from) expect(check, `${from} -> ${to}`).toBe('unchanged');
        else expect(check, `${from} -> ${to}`).toBe('ok');
      }
    }
  });
  it('the same decision again only as issued with another certificate', () => {
    expect(correctionCheck('issued', 'issued', true)).toBe('ok');
    expect(correctionCheck('issued', 'issued', false)).toBe('unchanged');
    expect(correctionCheck('refused', 'refused', true)).toBe('unchanged');
    expect(correctionCheck('in_progress', 'issued', true)).toBe('notDecided');
  });
  it('after a correction the request moves on by the ordinary transitions, and may be corrected again', () => {
    // Corrected back to in_progress: processed again, then decided again, then corrected again.
    expect(mayChangeStatus('in_progress', 'issued')).toBe(true);
    expect(correctionCheck('issued', 'refused')).toBe('ok');
  });
  it("the current certificate is the current decision's: the last row's outcome", () => {
    const row = (status: HistoryStep['status'], certificate: string | null = null, correction = false) => ({
      status,
      certificate,
      correction,
    });
    expect(currentCertificate([])).toBeNull();
    expect(currentCertificate([row('received'), row('issued', '1x1')])).toBe('1x1');
    // A later note with the same status keeps it.
    expect(currentCertificate([row('issued', '1x1'), row('issued')])).toBe('1x1');
    // A correction to another certificate, or to issued without one, or to another status.
    expect(currentCertificate([row('issued', '1x1'), row('issued', '2x2', true)])).toBe('2x2');
    expect(currentCertificate([row('issued', '1x1'), row('issued', null, true)])).toBeNull();
    expect(currentCertificate([row('issued', '1x1'), row('refused', null, true)])).toBeNull();
    expect(
      currentCertificate([row('issued', '1x1'), row('in_progress', null, true), row('issued')]),
    ).toBeNull();
    expect(
      currentCertificate([row('issued', '1x1'), row('in_progress', null, true), row('issued', '3x3')]),
    ).toBe('3x3');
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

import { describe, expect, it } from 'vitest';
import { activityRange, computeCoverage } from './coverage.js';
import { formatMonthYear } from './monthYear.js';

// Window for this day: 04/2020 .. 03/2025 (60 months).
const today = { year: 2025, month: 3, day: 15 };
const fmt = (list: Array<{ year: number; month: number }>) => list.map(formatMonthYear);

describe('window', () => {
  it('is the 60 months ending with the current month', () => {
    const r = computeCoverage({ employerFrom: '', activities: [] }, today);
    expect(r.window).toHaveLength(60);
    expect(formatMonthYear(r.window[0] ?? { year: 0, month: 1 })).toBe('04/2020');
    expect(formatMonthYear(r.window[59] ?? { year: 0, month: 1 })).toBe('03/2025');
    expect(r.uncovered).toHaveLength(60);
    expect(r.ok).toBe(false);
  });
});

describe('current employer', () => {
  it('covers from its start to now; a start before the window covers everything', () => {
    const r = computeCoverage({ employerFrom: '01/2010', activities: [] }, today);
    expect(r.uncovered).toEqual([]);
    expect(r.ok).toBe(true);
  });
  it('started at the window start covers all 60', () => {
    expect(computeCoverage({ employerFrom: '04/2020', activities: [] }, today).uncovered).toEqual([]);
  });
  it('started one month into the window leaves exactly 1 uncovered: ok', () => {
    const r = computeCoverage({ employerFrom: '05/2020', activities: [] }, today);
    expect(fmt(r.uncovered)).toEqual(['04/2020']);
    expect(r.ok).toBe(true);
  });
  it('started two months into the window leaves 2 uncovered: not ok', () => {
    const r = computeCoverage({ employerFrom: '06/2020', activities: [] }, today);
    expect(fmt(r.uncovered)).toEqual(['04/2020', '05/2020']);
    expect(r.ok).toBe(false);
  });
  it('a future start (allowed up to 6 months) covers nothing yet', () => {
    const r = computeCoverage(
      { employerFrom: '05/2025', activities: [{ from: '01/2015', to: '03/2025' }] },
      today,
    );
    expect(r.ok).toBe(true);
    expect(computeCoverage({ employerFrom: '05/2025', activities: [] }, today).covered).toEqual([]);
  });
  it('an invalid start covers nothing', () => {
    expect(computeCoverage({ employerFrom: '13/2010', activities: [] }, today).covered).toEqual([]);
    expect(computeCoverage({ employerFrom: '2010', activities: [] }, today).covered).toEqual([]);
    expect(computeCoverage({ employerFrom: '01/2026', activities: [] }, today).covered).toEqual([]);
  });
});

describe('past activities', () => {
  it('ranges crossing the window start count only inside the window', () => {
    const r = computeCoverage(
      { employerFrom: '01/2023', activities: [{ from: '01/2015', to: '12/2022' }] },
      today,
    );
    expect(r.uncovered).toEqual([]);
    expect(r.covered).toHaveLength(60);
  });
  it('a gap of exactly one month between activities is ok, two are not', () => {
    const one = computeCoverage(
      { employerFrom: '02/2023', activities: [{ from: '01/2015', to: '12/2022' }] },
      today,
    );
    expect(fmt(one.uncovered)).toEqual(['01/2023']);
    expect(one.ok).toBe(true);
    const two = computeCoverage(
      { employerFrom: '03/2023', activities: [{ from: '01/2015', to: '12/2022' }] },
      today,
    );
    expect(fmt(two.uncovered)).toEqual(['01/2023', '02/2023']);
    expect(two.ok).toBe(false);
  });
  it('two separate one-month gaps make 2 uncovered: not ok', () => {
    const r = computeCoverage(
      {
        employerFrom: '01/2024',
        activities: [
          { from: '01/2015', to: '05/2022' },
          { from: '07/2022', to: '11/2023' },
        ],
      },
      today,
    );
    expect(fmt(r.uncovered)).toEqual(['06/2022', '12/2023']);
    expect(r.ok).toBe(false);
  });
  it('overlapping ranges count each month once', () => {
    const r = computeCoverage(
      {
        employerFrom: '',
        activities: [
          { from: '04/2020', to: '06/2023' },
          { from: '01/2023', to: '03/2025' },
          { from: '02/2023', to: '02/2023' },
        ],
      },
      today,
    );
    expect(r.covered).toHaveLength(60);
    expect(r.ok).toBe(true);
  });
  it('a one-month range (from = to) covers that month', () => {
    const r = computeCoverage(
      { employerFrom: '06/2020', activities: [{ from: '5/2020', to: '5/2020' }] },
      today,
    );
    expect(fmt(r.uncovered)).toEqual(['04/2020']);
  });
  it('ignores invalid rows', () => {
    const bad = [
      { from: '01/2015', to: '' }, // to missing
      { from: '12/2024', to: '01/2015' }, // to before from
      { from: '01/2015', to: '04/2025' }, // to in the future
      { from: '13/2015', to: '01/2025' }, // invalid month
      { from: '1/1899', to: '01/2025' }, // year before 1900
      { from: 'x', to: '01/2025' },
    ];
    for (const row of bad) {
      expect(activityRange(row, today)).toBeNull();
      expect(computeCoverage({ employerFrom: '', activities: [row] }, today).covered).toEqual([]);
    }
    expect(computeCoverage({ employerFrom: '', activities: bad }, today).ok).toBe(false);
  });
  it('the current month counts: an activity that ended last month leaves it uncovered', () => {
    const r = computeCoverage({ employerFrom: '', activities: [{ from: '01/2015', to: '02/2025' }] }, today);
    expect(fmt(r.uncovered)).toEqual(['03/2025']);
    expect(r.ok).toBe(true);
  });
  it('moves with today', () => {
    const input = { employerFrom: '', activities: [{ from: '01/2015', to: '02/2025' }] };
    expect(computeCoverage(input, { year: 2025, month: 4, day: 1 }).ok).toBe(false);
  });
});

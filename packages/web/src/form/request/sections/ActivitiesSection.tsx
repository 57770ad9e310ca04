import { formatMonthYear, type MonthYear, monthIndex } from '@ros/domain';
import { useT } from '../../../shell/translate';
import { useCoverage } from '../context';
import { SectionFields } from '../SectionFields';

/** Consecutive months as ranges ("04/2020–12/2021", "03/2025"). */
export function monthRanges(months: readonly MonthYear[]): string[] {
  const out: string[] = [];
  let start: MonthYear | undefined;
  let prev: MonthYear | undefined;
  for (const m of months) {
    if (start && prev && monthIndex(m) === monthIndex(prev) + 1) {
      prev = m;
      continue;
    }
    if (start && prev) out.push(rangeText(start, prev));
    start = m;
    prev = m;
  }
  if (start && prev) out.push(rangeText(start, prev));
  return out;
}
const rangeText = (a: MonthYear, b: MonthYear) =>
  monthIndex(a) === monthIndex(b) ? formatMonthYear(a) : `${formatMonthYear(a)}–${formatMonthYear(b)}`;

/** The label of a past-activity field; field1/field2 depend on the row's type. */
export function useActivityLabel() {
  const { t } = useT();
  return (field: string, type: string) =>
    field === 'field1' || field === 'field2'
      ? t(`FORM.ACTIVITY.${field.toUpperCase()}_${type || '0'}`)
      : t(`FORM.ACTIVITY.${field.toUpperCase()}`);
}

/**
 * Past activities with the coverage of the last 5 years (a new request's: FORM_SECTIONS): a list
 * of rows (RowsField, by the entry's kind) in this section's words, the coverage above it. What a
 * row's field1 and field2 are called follows its type.
 */
export function ActivitiesSection() {
  const { t } = useT();
  const label = useActivityLabel();
  return (
    <SectionFields
      name="activities"
      intro={
        <>
          <p>{t('FORM.ACTIVITY.INTRO')}</p>
          <Coverage />
        </>
      }
      place={{
        past_activities: {
          list: {
            name: 'activity',
            texts: {
              row: 'FORM.ACTIVITY.ROW',
              add: 'FORM.ACTIVITY.ADD',
              remove: 'FORM.ACTIVITY.REMOVE',
              removeTip: 'FORM.TOOLTIPS.REMOVE_ACTIVITY',
              limit: 'FORM.ACTIVITY.LIMIT',
            },
            columnLabel: (column, row) => label(column, row.type ?? ''),
            labelsFollow: ['type'],
          },
        },
      }}
    />
  );
}

function Coverage() {
  const { t } = useT();
  const coverage = useCoverage();
  return (
    <div
      className={`coverage${coverage.ok ? ' coverage--ok' : ''}`}
      data-testid="coverage"
      aria-live="polite"
    >
      {coverage.uncovered.length === 0
        ? t('FORM.COVERAGE.ALL')
        : t('FORM.COVERAGE.MISSING', {
            count: coverage.uncovered.length,
            months: monthRanges(coverage.uncovered).join(', '),
          })}
    </div>
  );
}

import {
  emptyPastActivity,
  type FormValues,
  formatMonthYear,
  isFieldEnabled,
  type MonthYear,
  monthIndex,
  normalizeMonthYear,
} from '@ros/domain';
import { type Path, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { Button } from '../../../components/Button';
import { Tooltip } from '../../../components/Tooltip';
import { useT } from '../../../shell/translate';
import { CatalogueField } from '../CatalogueField';
import { fieldId, useCoverage, useRequestForm } from '../context';
import { SectionCard } from '../SectionCard';

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

/** The remove button of a row, with its tooltip (a tap removes, not explains). */
export function RemoveRowButton({
  label,
  tooltip,
  onClick,
}: {
  label: string;
  tooltip: string;
  onClick: () => void;
}) {
  return (
    <Tooltip content={tooltip} position="right" tapToggle={false}>
      {(describedBy) => (
        <Button variant="link" aria-describedby={describedBy} onClick={onClick}>
          {label}
        </Button>
      )}
    </Tooltip>
  );
}

/** Past activities with the coverage of the last 5 years (a new request's: FORM_SECTIONS). */
export function ActivitiesSection() {
  return <Activities />;
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

function Activities() {
  const { t } = useT();
  const { status, focusLater } = useRequestForm();
  const { control } = useFormContext<FormValues>();
  const rows = useFieldArray({ control, name: 'past_activities' });
  const add = () => {
    rows.append(emptyPastActivity(), { shouldFocus: false });
    focusLater(fieldId(`past_activities.${rows.fields.length}.from`));
  };
  const remove = (i: number) => {
    rows.remove(i);
    status.markChanged('past_activities');
    focusLater('add-activity');
  };
  return (
    <SectionCard name="activities">
      <p>{t('FORM.ACTIVITY.INTRO')}</p>
      <Coverage />
      {rows.fields.map((row, i) => (
        <ActivityRow key={row.id} index={i} onRemove={() => remove(i)} />
      ))}
      <button
        id="add-activity"
        type="button"
        className="btn btn--outlined btn--m"
        onClick={add}
        data-testid="add-activity"
      >
        {t('FORM.ACTIVITY.ADD')}
      </button>
    </SectionCard>
  );
}

function ActivityRow({ index, onRemove }: { index: number; onRemove: () => void }) {
  const { t } = useT();
  const { ctx } = useRequestForm();
  const { getValues, setValue } = useFormContext<FormValues>();
  const label = useActivityLabel();
  const p = (f: string) => `past_activities.${index}.${f}` as Path<FormValues>;
  const type = String(useWatch<FormValues>({ name: p('type') }) ?? '');
  const normalizeOnBlur = (path: Path<FormValues>) => () => {
    const v = String(getValues(path) ?? '');
    const normal = normalizeMonthYear(v);
    if (normal && normal !== v) setValue(path, normal as never);
  };
  return (
    <fieldset className="row-card" data-testid="activity-row">
      <legend>{t('FORM.ACTIVITY.ROW', { n: index + 1 })}</legend>
      <div className="form-grid">
        <CatalogueField
          path={p('from')}
          label={label('from', type)}
          hint={t('FORM.HINTS.month_year')}
          onBlur={normalizeOnBlur(p('from'))}
        />
        <CatalogueField
          path={p('to')}
          label={label('to', type)}
          hint={t('FORM.HINTS.month_year')}
          onBlur={normalizeOnBlur(p('to'))}
        />
        <CatalogueField
          path={p('type')}
          label={label('type', type)}
          onChange={() => {
            // Called with the new type set: a field2 that is now off (type Other) goes.
            if (!isFieldEnabled(p('field2'), getValues(), ctx)) setValue(p('field2'), '' as never);
          }}
        />
        <CatalogueField path={p('field1')} label={label('field1', type)} />
        {/* The row re-renders with its type (watched above): field2's state and "(optional)" follow it. */}
        <CatalogueField
          path={p('field2')}
          label={label('field2', type)}
          disabled={!isFieldEnabled(p('field2'), getValues(), ctx)}
        />
      </div>
      <RemoveRowButton
        label={t('FORM.ACTIVITY.REMOVE', { n: index + 1 })}
        tooltip={t('FORM.TOOLTIPS.REMOVE_ACTIVITY')}
        onClick={onRemove}
      />
    </fieldset>
  );
}

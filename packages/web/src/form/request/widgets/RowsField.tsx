import {
  emptyRow,
  type FormValues,
  fieldSpec,
  isFieldEnabled,
  MAX_TEXT_LINES,
  normalizedValue,
  type ValueSpec,
} from '@ros/domain';
import { type ArrayPath, type Path, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { Button } from '../../../components/Button';
import { Tooltip } from '../../../components/Tooltip';
import { useT } from '../../../shell/translate';
import { CatalogueField } from '../CatalogueField';
import { fieldId, useRequestForm } from '../context';

/** The words of a list of rows (its section's keys: FORM.ACTIVITY.*, FORM.ABROAD.*). */
export interface RowTexts {
  /** A row's legend, with its number `{n}`. */
  row: string;
  add: string;
  /** A row's remove button, with its number `{n}`. */
  remove: string;
  /** The remove button's tooltip. */
  removeTip: string;
  /** In place of the add button once the entry's `maxItems` rows are there (`{max}`). */
  limit: string;
}

/**
 * What the section of a `rows` entry says of its list (the rest is the entry's): its words;
 * `name`, the ids of its add button (`add-<name>`) and rows (`<name>-row`); each column's label,
 * which may depend on the row's columns named in `labelsFollow` (an activity's type); and `onAdd`,
 * run after a row is added, true when it moved the focus itself (the stays' notice).
 */
export interface RowsPlacement {
  name: string;
  texts: RowTexts;
  columnLabel: (column: string, row: Readonly<Record<string, string>>) => string;
  labelsFollow?: readonly string[];
  onAdd?: () => boolean;
}

/**
 * The control of a `rows` entry (past activities, stays abroad): a card per row with a cell per
 * column, each a `CatalogueField` of the column's kind (a month/year with its format hint and
 * written MM/YYYY on leaving it; a multi-line text as a wide box with the text policy's hint; a
 * column the entry's `enabled` turns off for its row disabled and emptied), a remove button per
 * row and an add button while the entry's `maxItems` allows one (then its limit's text). Adding
 * focuses the new row's first cell, removing the add button.
 */
export function RowsField({ path, rows: placement }: { path: Path<FormValues>; rows: RowsPlacement }) {
  const { t } = useT();
  const { status, focusLater, catalogue } = useRequestForm();
  const { control } = useFormContext<FormValues>();
  const list = useFieldArray({ control, name: path as ArrayPath<FormValues> });
  const spec = fieldSpec(path, catalogue);
  if (!spec || !('kind' in spec) || spec.kind !== 'rows') return null;
  const columns = Object.keys(spec.columns);
  const { texts } = placement;
  const addId = `add-${placement.name}`;
  const add = () => {
    const index = list.fields.length;
    list.append(emptyRow(spec) as never, { shouldFocus: false });
    status.markChanged(path);
    if (!placement.onAdd?.()) focusLater(fieldId(`${path}.${index}.${columns[0]}`));
  };
  const remove = (i: number) => {
    list.remove(i);
    status.markChanged(path);
    focusLater(addId);
  };
  return (
    <div className="rows form-grid__wide">
      {list.fields.map((row, i) => (
        <RowCard
          key={row.id}
          path={path}
          index={i}
          columns={columns}
          placement={placement}
          onRemove={() => remove(i)}
        />
      ))}
      {list.fields.length < spec.maxItems ? (
        <button
          id={addId}
          type="button"
          className="btn btn--outlined btn--m"
          onClick={add}
          data-testid={addId}
        >
          {t(texts.add)}
        </button>
      ) : (
        <p className="field__hint">{t(texts.limit, { max: spec.maxItems })}</p>
      )}
    </div>
  );
}

function RowCard({
  path,
  index,
  columns,
  placement,
  onRemove,
}: {
  path: string;
  index: number;
  columns: readonly string[];
  placement: RowsPlacement;
  onRemove: () => void;
}) {
  const { t } = useT();
  const { ctx, catalogue } = useRequestForm();
  const { getValues, setValue } = useFormContext<FormValues>();
  const { texts } = placement;
  const cell = (column: string) => `${path}.${index}.${column}` as Path<FormValues>;
  // The row re-renders with the columns its cells follow (a column's `on`, the labels'
  // `labelsFollow`: an activity's type), not at every keystroke in it.
  const spec = fieldSpec(path, catalogue);
  const followed = [
    ...new Set([
      ...(spec && 'kind' in spec && spec.kind === 'rows'
        ? Object.values(spec.columns).flatMap((c) => (c.on ?? []) as string[])
        : []),
      ...(placement.labelsFollow ?? []),
    ]),
  ];
  useWatch<FormValues>({ name: followed.map(cell), disabled: followed.length === 0 });
  const row = (getValues(`${path}.${index}` as Path<FormValues>) ?? {}) as Record<string, string>;
  const on = (column: string) => isFieldEnabled(cell(column), getValues(), ctx, catalogue);
  // A change that turns a cell off (an activity of type Other has no field2) empties it.
  const clearOff = () => {
    for (const c of columns) if (!on(c) && getValues(cell(c)) !== '') setValue(cell(c), '' as never);
  };
  return (
    <fieldset className="row-card" data-testid={`${placement.name}-row`}>
      <legend>{t(texts.row, { n: index + 1 })}</legend>
      <div className="form-grid">
        {columns.map((column) => {
          const spec = fieldSpec(cell(column), catalogue) as ValueSpec;
          const multiline = spec.kind === 'text' && spec.multiline === true;
          const normalizeOnBlur = () => {
            const v = String(getValues(cell(column)) ?? '');
            const normal = normalizedValue(spec, v.trim());
            if (normal !== v) setValue(cell(column), normal as never);
          };
          return (
            <CatalogueField
              key={column}
              path={cell(column)}
              label={placement.columnLabel(column, row)}
              disabled={!on(column)}
              onChange={clearOff}
              {...(spec.kind === 'monthYear'
                ? { hint: t('FORM.HINTS.month_year'), onBlur: normalizeOnBlur }
                : multiline
                  ? {
                      hint: t('FORM.HINTS.free_text', { max: MAX_TEXT_LINES }),
                      rows: 3,
                      className: 'form-grid__wide',
                    }
                  : {})}
            />
          );
        })}
      </div>
      {/* A tap removes, not explains: the tooltip is for a hover or the keyboard. */}
      <Tooltip content={t(texts.removeTip)} position="right" tapToggle={false}>
        {(describedBy) => (
          <Button variant="link" aria-describedby={describedBy} onClick={onRemove}>
            {t(texts.remove, { n: index + 1 })}
          </Button>
        )}
      </Tooltip>
    </fieldset>
  );
}

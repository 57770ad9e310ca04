import {
  type FormFieldName,
  type FormValues,
  type InputAttributes,
  isFieldReadOnly,
  isFieldRequired,
  maxLengthFor,
} from '@ros/domain';
import { type Path, useFormContext, useWatch } from 'react-hook-form';
import { Radio } from '../../components/Choices';
import { Combobox, type ComboOption } from '../../components/Combobox';
import { InfoTip } from '../../components/Tooltip';
import { useT } from '../../shell/translate';
import { useComboboxTexts } from '../comboboxTexts';
import { Field } from '../LabelledField';
import { fieldId, useFormStatus, useRequestForm } from './context';
import { useErrorTexts } from './messages';
import { SectionCard } from './SectionCard';

/**
 * The controls of step 2. Each reads the values from react-hook-form's context and its own
 * message and "(optional)" from the rules' status, so typing in one re-renders only that one.
 */

/** The message shown under a control: its first error, once changed or after a finish. */
export function useShownError(path: string): string {
  const texts = useErrorTexts();
  const error = useFormStatus((s) => (s.attempted || s.changed.has(path) ? (s.errors[path] ?? null) : null));
  return error ? texts.underField(path, error) : '';
}

/**
 * "(optional)": what the rules (isFieldRequired) do not require now. A top-level field's from the
 * rules' status; a row column's from its row (the row re-renders with what its columns depend on,
 * the activity type).
 */
export function useOptional(path: string, override?: boolean): boolean {
  const { ctx, catalogue } = useRequestForm();
  const { getValues } = useFormContext<FormValues>();
  const top = path.split('.')[0] as FormFieldName;
  const required = useFormStatus((s) => s.required.has(top));
  if (override !== undefined) return override;
  return path.includes('.') ? !isFieldRequired(path, getValues(), ctx, catalogue) : !required;
}

/** Marks a path changed and sets its value (controls that are not plain inputs). */
export function useSetField() {
  const { setValue } = useFormContext<FormValues>();
  const { status } = useRequestForm();
  return (path: Path<FormValues>, value: unknown) => {
    setValue(path, value as never, { shouldDirty: true });
    status.markChanged(path);
  };
}

/**
 * What every control of a path starts with: its id, its label (FORM.FIELDS.<path> unless given),
 * whether its value is read-only (the register gave it), "(optional)" and the message to show.
 */
export function useFieldFrame(
  path: Path<FormValues>,
  label: string | undefined,
  optional: boolean | undefined,
) {
  const { t } = useT();
  const { readOnly } = useRequestForm();
  return {
    id: fieldId(path),
    text: label ?? t(`FORM.FIELDS.${path}`),
    readOnly: isFieldReadOnly(path as FormFieldName, { readOnly }),
    isOptional: useOptional(path, optional),
    error: useShownError(path),
  };
}

/** What `useFieldFrame` gives: a control's id, label, read-only state, "(optional)" and message. */
export type FieldFrame = ReturnType<typeof useFieldFrame>;

/**
 * The labelled frame of a control of a path (its label, hint, "(optional)", message and info):
 * a value from the register cannot be changed, so it shows no format hint and no "(optional)".
 */
export function FramedField({
  frame,
  hint,
  info,
  className,
  children,
}: {
  frame: FieldFrame;
  hint?: string | undefined;
  info?: string | undefined;
  className?: string | undefined;
  children: (describedBy: string | undefined, invalid: boolean) => React.ReactNode;
}) {
  return (
    <Field
      id={frame.id}
      label={frame.text}
      hint={frame.readOnly ? undefined : hint}
      optional={frame.isOptional && !frame.readOnly}
      error={frame.error}
      info={info}
      className={className}
    >
      {children}
    </Field>
  );
}

export interface CommonProps {
  path: Path<FormValues>;
  label?: string;
  hint?: string;
  optional?: boolean;
  disabled?: boolean;
  className?: string;
  /** What the field is: an info button with a tooltip beside the label. */
  info?: string;
}

/** A text box (or a textarea with `rows`) bound to a path, with its label, hint and message. */
export function TextField({
  path,
  label,
  hint,
  optional,
  disabled,
  className,
  info,
  autoComplete,
  inputMode,
  type,
  rows,
  onChange,
  onBlur,
}: CommonProps & {
  autoComplete?: string;
  inputMode?: InputAttributes['inputMode'];
  type?: InputAttributes['type'];
  /** A textarea of this many rows (long free text). */
  rows?: number;
  onChange?: (v: string) => void;
  onBlur?: () => void;
}) {
  const { register } = useFormContext<FormValues>();
  const { status, catalogue } = useRequestForm();
  const frame = useFieldFrame(path, label, optional);
  const { id, readOnly, isOptional } = frame;
  const registered = register(path, {
    onChange: (e) => {
      status.markChanged(path);
      onChange?.(e.target.value);
    },
    onBlur,
  });
  return (
    <FramedField frame={frame} hint={hint} info={info} className={className}>
      {(describedBy, invalid) =>
        rows ? (
          <textarea
            id={id}
            className="input"
            rows={rows}
            maxLength={maxLengthFor(path, catalogue)}
            readOnly={readOnly}
            disabled={disabled}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            aria-required={!isOptional || undefined}
            {...registered}
          />
        ) : (
          <input
            id={id}
            className="input"
            type={type ?? 'text'}
            inputMode={inputMode}
            autoComplete={autoComplete ?? 'off'}
            maxLength={maxLengthFor(path, catalogue)}
            readOnly={readOnly}
            disabled={disabled}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            aria-required={!isOptional || undefined}
            {...registered}
          />
        )
      }
    </FramedField>
  );
}

/** A read-only value (a prefilled list choice) shown as a read-only text box. */
export function ReadOnlyField({
  id,
  label,
  shown,
  info,
}: {
  id: string;
  label: string;
  shown: string;
  info?: string;
}) {
  return (
    <Field id={id} label={label} info={info}>
      {(describedBy) => (
        <input id={id} className="input" readOnly value={shown} aria-describedby={describedBy} />
      )}
    </Field>
  );
}

/** A prefilled list field: the chosen item's name, read-only. */
function ReadOnlyChoice({
  path,
  label,
  nameOf,
  info,
}: {
  path: Path<FormValues>;
  label: string;
  nameOf: (code: string) => string;
  info?: string;
}) {
  const value = String(useWatch<FormValues>({ name: path }) ?? '');
  return <ReadOnlyField id={fieldId(path)} label={label} shown={nameOf(value)} info={info} />;
}

/** A native select of coded items. */
export function SelectField({
  path,
  items,
  label,
  optional,
  disabled,
  className,
  info,
  onChange,
  noEmpty,
}: CommonProps & {
  items: ReadonlyArray<{ code: string; name: string }>;
  onChange?: (v: string) => void;
  /** No "Choose…" entry: a value is always chosen (the dial code). */
  noEmpty?: boolean;
}) {
  const { t } = useT();
  const { register } = useFormContext<FormValues>();
  const { status } = useRequestForm();
  const { id, text, readOnly, isOptional, error } = useFieldFrame(path, label, optional);
  if (readOnly) {
    const nameOf = (code: string) => items.find((i) => i.code === code)?.name ?? code;
    return <ReadOnlyChoice path={path} label={text} nameOf={nameOf} info={info} />;
  }
  return (
    <Field id={id} label={text} optional={isOptional} error={error} info={info} className={className}>
      {(describedBy, invalid) => (
        <select
          id={id}
          className="input"
          disabled={disabled}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          aria-required={!isOptional || undefined}
          {...register(path, {
            onChange: (e) => {
              status.markChanged(path);
              onChange?.(e.target.value);
            },
          })}
        >
          {!noEmpty && <option value="">{t('FORM.CHOOSE')}</option>}
          {items.map((i) => (
            <option key={i.code} value={i.code}>
              {i.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A searchable list (countries, municipalities). `onChange` gets the new and the previous code. */
export function ComboField({
  path,
  options,
  label,
  optional,
  disabled,
  onChange,
  loading,
}: CommonProps & {
  options: readonly ComboOption[];
  onChange?: (next: string, previous: string) => void;
  /** The options are still being fetched (the municipalities). */
  loading?: boolean;
}) {
  const set = useSetField();
  const { id, text, readOnly, isOptional, error } = useFieldFrame(path, label, optional);
  const current = String(useWatch<FormValues>({ name: path }) ?? '');
  const comboTexts = useComboboxTexts();
  if (readOnly) {
    return (
      <ReadOnlyField
        id={id}
        label={text}
        shown={options.find((o) => o.value === current)?.label ?? current}
      />
    );
  }
  return (
    <Field id={id} label={text} optional={isOptional} error={error}>
      {(describedBy, invalid) => (
        <Combobox
          id={id}
          texts={comboTexts}
          options={options}
          value={current}
          disabled={disabled}
          required={!isOptional}
          invalid={invalid}
          describedBy={describedBy}
          loading={loading}
          onChange={(v) => {
            set(path, v);
            onChange?.(v, current);
          }}
        />
      )}
    </Field>
  );
}

/** A section of step 2 drawn as fields in a grid: its card (SectionCard), an intro, the fields. */
export function Section({
  name,
  children,
  intro,
}: {
  /** FORM.SECTIONS.<name>; the section's id is section-<name>. */
  name: string;
  children: React.ReactNode;
  /** What comes between the heading and the fields (an intro, the copy button). */
  intro?: React.ReactNode;
}) {
  return (
    <SectionCard name={name}>
      {intro}
      <div className="form-grid">{children}</div>
    </SectionCard>
  );
}

/** A few coded items as radio buttons in a fieldset (long names wrap, unlike a select's). */
export function RadioField({
  path,
  items,
  label,
  optional,
  info,
  className,
}: CommonProps & { items: ReadonlyArray<{ code: string; name: string }> }) {
  const { t } = useT();
  const set = useSetField();
  const { id, text, readOnly, isOptional, error } = useFieldFrame(path, label, optional);
  const current = String(useWatch<FormValues>({ name: path }) ?? '');
  if (readOnly) {
    return (
      <ReadOnlyField id={id} label={text} shown={items.find((i) => i.code === current)?.name ?? current} />
    );
  }
  const errorId = `${id}-error`;
  return (
    <fieldset
      id={id}
      className={`field fieldset${error ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}
      aria-describedby={error ? errorId : undefined}
      // Named by the legend's words only, not its help button's (issue 27).
      aria-labelledby={`${id}-legend`}
    >
      <legend className="field__label">
        <span id={`${id}-legend`}>
          {text}
          {/* A group holding a choice cannot be left empty (the employment proof starts on its
              default, spec section 5): "(optional)" would ask nothing of the person there. */}
          {isOptional && current === '' && <span className="field__optional"> {t('FORM.OPTIONAL')}</span>}
        </span>
        {info && (
          <InfoTip label={t('FORM.TOOLTIPS.INFO_LABEL', { field: text })} content={info} theme="light" />
        )}
      </legend>
      {items.map((i) => (
        <Radio
          key={i.code}
          id={`${id}-${i.code}`}
          name={path}
          value={i.code}
          label={i.name}
          checked={current === i.code}
          invalid={Boolean(error)}
          onChange={() => set(path, i.code)}
        />
      ))}
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** A coded item to offer: its code and its name in the page's language. */

import {
  areRowsRequired,
  type CodeListName,
  type FormFieldName,
  type FormValues,
  fieldSpec,
  isFieldReadOnly,
  maxLengthFor,
} from '@ros/domain';
import { type Path, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Radio } from '../../components/Choices';
import { InfoTip } from '../../components/Tooltip';
import { Combobox, type ComboOption } from '../Combobox';
import { Field } from '../fields';
import { type CodeItem, itemName, type ReferenceLists } from '../reference';
import { fieldId, useFormStatus, useRequestForm } from './context';
import { useErrorTexts } from './messages';

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

/** "(optional)": rows follow the mode; other fields what the rules require now. */
export function useOptional(path: string, override?: boolean): boolean {
  const { ctx } = useRequestForm();
  const top = path.split('.')[0] as FormFieldName;
  const required = useFormStatus((s) => s.required.has(top));
  if (override !== undefined) return override;
  return path.includes('.') ? !areRowsRequired(ctx) : !required;
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
 * whether the register fixed its value, "(optional)" and the message to show.
 */
function useFieldFrame(path: Path<FormValues>, label: string | undefined, optional: boolean | undefined) {
  const { t } = useTranslation();
  const { readOnly } = useRequestForm();
  return {
    id: fieldId(path),
    text: label ?? t(`FORM.FIELDS.${path}`),
    fixed: isFieldReadOnly(path as FormFieldName, { readOnly }),
    isOptional: useOptional(path, optional),
    error: useShownError(path),
  };
}

interface CommonProps {
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
  inputMode?: 'text' | 'numeric' | 'email' | 'tel';
  type?: string;
  /** A textarea of this many rows (long free text). */
  rows?: number;
  onChange?: (v: string) => void;
  onBlur?: () => void;
}) {
  const { register } = useFormContext<FormValues>();
  const { status } = useRequestForm();
  const { id, text, fixed, isOptional, error } = useFieldFrame(path, label, optional);
  const registered = register(path, {
    onChange: (e) => {
      status.markChanged(path);
      onChange?.(e.target.value);
    },
    onBlur,
  });
  return (
    <Field
      id={id}
      label={text}
      // A value from the register cannot be changed: no format hint, no "(optional)".
      hint={fixed ? undefined : hint}
      optional={isOptional && !fixed}
      error={error}
      info={info}
      className={className}
    >
      {(describedBy, invalid) =>
        rows ? (
          <textarea
            id={id}
            className="input"
            rows={rows}
            maxLength={maxLengthFor(path)}
            readOnly={fixed}
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
            maxLength={maxLengthFor(path)}
            readOnly={fixed}
            disabled={disabled}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            aria-required={!isOptional || undefined}
            {...registered}
          />
        )
      }
    </Field>
  );
}

/** A fixed value (a prefilled list choice) shown as a read-only text box. */
export function FixedField({
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
function FixedChoice({
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
  return <FixedField id={fieldId(path)} label={label} shown={nameOf(value)} info={info} />;
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
  const { t } = useTranslation();
  const { register } = useFormContext<FormValues>();
  const { status } = useRequestForm();
  const { id, text, fixed, isOptional, error } = useFieldFrame(path, label, optional);
  if (fixed) {
    const nameOf = (code: string) => items.find((i) => i.code === code)?.name ?? code;
    return <FixedChoice path={path} label={text} nameOf={nameOf} info={info} />;
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
}: CommonProps & {
  options: readonly ComboOption[];
  onChange?: (next: string, previous: string) => void;
}) {
  const set = useSetField();
  const { id, text, fixed, isOptional, error } = useFieldFrame(path, label, optional);
  const current = String(useWatch<FormValues>({ name: path }) ?? '');
  if (fixed) {
    return (
      <FixedField id={id} label={text} shown={options.find((o) => o.value === current)?.label ?? current} />
    );
  }
  return (
    <Field id={id} label={text} optional={isOptional} error={error}>
      {(describedBy, invalid) => (
        <Combobox
          id={id}
          options={options}
          value={current}
          disabled={disabled}
          required={!isOptional}
          invalid={invalid}
          describedBy={describedBy}
          onChange={(v) => {
            set(path, v);
            onChange?.(v, current);
          }}
        />
      )}
    </Field>
  );
}

/** A section of step 2: a card with its heading. */
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
  const { t } = useTranslation();
  return (
    <section className="card form-section" aria-labelledby={`section-${name}-title`} id={`section-${name}`}>
      <h2 id={`section-${name}-title`}>{t(`FORM.SECTIONS.${name}`)}</h2>
      {intro}
      <div className="form-grid">{children}</div>
    </section>
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
  const { t } = useTranslation();
  const set = useSetField();
  const { id, text, fixed, isOptional, error } = useFieldFrame(path, label, optional);
  const current = String(useWatch<FormValues>({ name: path }) ?? '');
  if (fixed) {
    return <FixedField id={id} label={text} shown={items.find((i) => i.code === current)?.name ?? current} />;
  }
  const errorId = `${id}-error`;
  return (
    <fieldset
      id={id}
      className={`field fieldset${error ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}
      aria-describedby={error ? errorId : undefined}
    >
      <legend className="field__label">
        {text}
        {isOptional && <span className="field__optional"> {t('FORM.OPTIONAL')}</span>}
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
export interface ListItem {
  code: string;
  name: string;
}

/** Where each code list of the catalogue (fields.ts) is among the loaded pick lists. */
const LIST_OF: Record<CodeListName, (lists: ReferenceLists) => readonly CodeItem[]> = {
  'document-types': (l) => l.documentTypes,
  'delivery-types': (l) => l.deliveryTypes,
  'dial-codes': (l) => l.dialCodes,
  'verification-types': (l) => l.verificationTypes,
  'duplicate-types': (l) => l.duplicateTypes,
  'activity-types': (l) => l.activityTypes,
};

/** The items of a code list by its catalogue name; a dial code shows its code first ('+420 (Czech Republic)'). */
export function listItems(lists: ReferenceLists, list: CodeListName, lang: 'cs' | 'en'): ListItem[] {
  return LIST_OF[list](lists).map((i) => ({
    code: i.code,
    // The code first, then the country in brackets: the code stays visible in a narrow box.
    name: list === 'dial-codes' ? `${i.code} (${itemName(i, lang)})` : itemName(i, lang),
  }));
}

type CatalogueFieldProps = CommonProps & {
  autoComplete?: string;
  inputMode?: 'text' | 'numeric' | 'email' | 'tel';
  type?: string;
  rows?: number;
  /** A text's new value, or a list choice's new (and previous) code. */
  onChange?: (next: string, previous: string) => void;
  onBlur?: () => void;
  /** A code list shown as radio buttons instead of a select (a few long names). */
  radio?: boolean;
  /** No "Choose…" entry in a select (a value is always chosen: the dial code). */
  noEmpty?: boolean;
  /** The items of the field's list to offer (DATOVKOU only with a data mailbox). */
  offer?: (items: ListItem[]) => ListItem[];
};

/**
 * The control of a field as the catalogue (fields.ts) describes it: a text box for text, dates
 * and month/years; a searchable list of countries or municipalities (a municipality outside CZ
 * is free text: `freeText`); a select of districts, of a code list's items or of a choice's
 * options. The maximum length is the catalogue's too (TextField). Sections give only what is
 * theirs: labels, hints, reactions and what disables the control.
 */
export function CatalogueField(props: CatalogueFieldProps) {
  const { path, onChange, radio, noEmpty, offer, ...common } = props;
  const { t } = useTranslation();
  const { lists, lang, countryOptions, municipalityOptions } = useRequestForm();
  const { getValues } = useFormContext<FormValues>();
  const spec = fieldSpec(path);
  const freeText = spec && 'freeText' in spec ? spec.freeText : undefined;
  const on = spec && 'on' in spec && freeText ? spec.on : undefined;
  // What decides whether the field is free text (a birth country) re-renders this control; nothing else does.
  useWatch<FormValues>({ name: (on ?? []) as FormFieldName[], disabled: !on });
  const text = () => (
    <TextField
      {...common}
      path={path}
      onChange={onChange && ((v) => onChange(v, ''))}
      onBlur={props.onBlur}
    />
  );
  if (!spec) return text();
  const select = (items: ListItem[]) => {
    const shown = offer ? offer(items) : items;
    const { label, optional, info, className, disabled } = common;
    return radio ? (
      <RadioField
        path={path}
        items={shown}
        label={label}
        optional={optional}
        info={info}
        className={className}
      />
    ) : (
      <SelectField
        path={path}
        items={shown}
        label={label}
        optional={optional}
        info={info}
        className={className}
        disabled={disabled}
        noEmpty={noEmpty}
        onChange={onChange && ((v) => onChange(v, ''))}
      />
    );
  };
  switch (spec.kind) {
    case 'country':
      return <ComboField {...common} path={path} options={countryOptions} onChange={onChange} />;
    case 'municipality':
      return freeText?.(getValues()) ? (
        text()
      ) : (
        <ComboField {...common} path={path} options={municipalityOptions} onChange={onChange} />
      );
    case 'district':
      return select(lists.districts.map((d) => ({ code: d.code, name: d.name })));
    case 'list':
      return select(listItems(lists, spec.list, lang));
    case 'choice':
      return select(
        spec.names === 'sex'
          ? spec.options.map((c) => ({ code: c, name: t(`FORM.SEX.${c}`) }))
          : listItems(lists, spec.names, lang),
      );
    default:
      return text();
  }
}

import {
  type FormFieldName,
  type FormValues,
  fieldSpec,
  type InputAttributes,
  inputAttributes,
  isFieldEnabled,
} from '@ros/domain';
import { useEffect } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useT } from '../../shell/translate';
import { useRequestForm } from './context';
import { ComboField, type CommonProps, RadioField, SelectField, TextField } from './controls';
import { type ListItem, listItems } from './lists';
import { MunicipalityField } from './MunicipalityField';
import { CheckboxesField, type CheckboxesProps } from './widgets/CheckboxesField';
import { ChipsField } from './widgets/ChipsField';
import { DateField } from './widgets/DateField';

export type CatalogueFieldProps = CommonProps & {
  autoComplete?: string;
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
  /** A list of codes' selection after a tick (checkboxes: one reason that unticks another). */
  toggle?: CheckboxesProps['toggle'];
};

/**
 * The control of a field as the catalogue (fields.ts) describes it, chosen by its kind: a text
 * box for text and month/years, with its kind's input attributes (kinds.ts: an e-mail's type and
 * autocomplete); a date's own box (DateField, dd.mm.yyyy); a searchable list of countries or
 * municipalities (a municipality outside CZ is free text: `freeText`); a select of districts, of
 * a code list's items or of a choice's options; a list of codes as chips of countries
 * (ChipsField) or checkboxes of a code list (CheckboxesField). The maximum length is the
 * catalogue's too (TextField). Sections give only what is theirs: labels, hints, reactions and
 * what disables the control.
 */
export function CatalogueField(props: CatalogueFieldProps) {
  const { path, onChange, radio, noEmpty, offer, toggle, hint, info, disabled, ...rest } = props;
  const { t, exists } = useT();
  const { lists, lang, countryOptions, catalogue, ctx } = useRequestForm();
  const { getValues, setValue } = useFormContext<FormValues>();
  const spec = fieldSpec(path, catalogue);
  const freeText = spec && 'freeText' in spec ? spec.freeText : undefined;
  const whenOff = spec && 'whenOff' in spec ? spec.whenOff : undefined;
  const on = spec && 'on' in spec && (freeText || whenOff) ? spec.on : undefined;
  // What decides whether the field is free text (a birth country) or off (the second citizenship
  // beside ##) re-renders this control; nothing else does.
  useWatch<FormValues>({ name: (on ?? []) as FormFieldName[], disabled: !on });
  // Off by its entry's `enabled`: a disabled box or none (`whenOff`), and its value cleared.
  const off = whenOff !== undefined && !isFieldEnabled(path, getValues(), ctx, catalogue);
  useEffect(() => {
    if (off && getValues(path) !== '') setValue(path, '' as never);
  }, [off, path, getValues, setValue]);
  if (off && whenOff === 'gone') return null;
  // The field's own texts by its name, where they are written: its hint (FORM.HINTS.<name>) and
  // its info button's (FORM.TOOLTIPS.FIELDS.<name>); a section's own hint or info goes first.
  const own = (key: string) => (exists(key) ? t(key) : undefined);
  const common = {
    ...rest,
    hint: hint ?? own(`FORM.HINTS.${path}`),
    info: info ?? own(`FORM.TOOLTIPS.FIELDS.${path}`),
    disabled: disabled || (off && whenOff === 'disabled'),
  };
  // The text box's type, input mode and autocomplete are its kind's (kinds.ts); a section may name its own.
  const input: InputAttributes =
    spec && spec.kind !== 'boolean' && spec.kind !== 'items' && spec.kind !== 'rows'
      ? inputAttributes(spec)
      : {};
  const text = () => (
    <TextField
      {...input}
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
    const field = { path, items: shown, label, optional, info, className };
    return radio ? (
      <RadioField {...field} />
    ) : (
      <SelectField
        {...field}
        disabled={disabled}
        noEmpty={noEmpty}
        onChange={onChange && ((v) => onChange(v, ''))}
      />
    );
  };
  switch (spec.kind) {
    case 'date':
      return <DateField {...common} path={path} />;
    case 'items':
      return spec.item.kind === 'list' ? (
        <CheckboxesField {...common} path={path} list={spec.item.list} toggle={toggle} />
      ) : (
        <ChipsField {...common} path={path} />
      );
    case 'country':
      return <ComboField {...common} path={path} options={countryOptions} onChange={onChange} />;
    case 'municipality':
      return freeText?.(getValues()) ? (
        text()
      ) : (
        <MunicipalityField {...common} path={path} onChange={onChange} />
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

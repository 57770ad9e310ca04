import {
  type CodeListName,
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
import { type CodeItem, itemName, type ReferenceLists } from '../reference';
import { useRequestForm } from './context';
import { ComboField, type CommonProps, RadioField, SelectField, TextField } from './controls';
import { MunicipalityField } from './MunicipalityField';

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
};

/**
 * The control of a field as the catalogue (fields.ts) describes it: a text box for text, dates
 * and month/years, with its kind's input attributes (kinds.ts: an e-mail's type and autocomplete); a searchable list of countries or municipalities (a municipality outside CZ
 * is free text: `freeText`); a select of districts, of a code list's items or of a choice's
 * options. The maximum length is the catalogue's too (TextField). Sections give only what is
 * theirs: labels, hints, reactions and what disables the control.
 */
export function CatalogueField(props: CatalogueFieldProps) {
  const { path, onChange, radio, noEmpty, offer, ...common } = props;
  const { t, exists } = useT();
  // The field's own texts by its name, where they are written: its hint (FORM.HINTS.<name>) and
  // its info button's (FORM.TOOLTIPS.FIELDS.<name>); a section's own hint or info goes first.
  const own = (key: string) => (exists(key) ? t(key) : undefined);
  common.hint ??= own(`FORM.HINTS.${path}`);
  common.info ??= own(`FORM.TOOLTIPS.FIELDS.${path}`);
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
  if (off && whenOff === 'disabled') common.disabled = true;
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

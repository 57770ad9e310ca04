import type { FormValues } from '@ros/domain';
import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { Combobox } from '../../../components/Combobox';
import { useT } from '../../../shell/translate';
import { useComboboxTexts } from '../../comboboxTexts';
import { Field } from '../../LabelledField';
import { useRequestForm } from '../context';
import { useSetField, useShownError } from '../controls';

/** Other citizenships: several countries, shown as removable chips. */
export function OtherCitizenships() {
  const { t } = useT();
  const { readOnly, countryOptions } = useRequestForm();
  const comboTexts = useComboboxTexts();
  const set = useSetField();
  const value = useWatch<FormValues, 'other_citizenships'>({ name: 'other_citizenships' });
  // Only the server finds one here (a code it does not know).
  const error = useShownError('other_citizenships');
  const isReadOnly = readOnly.has('other_citizenships');
  const rest = useMemo(() => countryOptions.filter((o) => !value.includes(o.value)), [countryOptions, value]);
  const nameOf = (code: string) => countryOptions.find((o) => o.value === code)?.label ?? code;
  const onChange = (next: string[]) => set('other_citizenships', next);
  return (
    <Field
      id="other_citizenships"
      label={t('FORM.FIELDS.other_citizenships')}
      optional={!isReadOnly}
      hint={isReadOnly ? undefined : t('FORM.HINTS.other_citizenships')}
      error={error}
      className="form-grid__wide"
    >
      {(describedBy, invalid) => (
        <>
          {value.length > 0 && (
            <ul
              className="chips"
              id="other_citizenships-chosen"
              aria-label={t('FORM.FIELDS.other_citizenships')}
            >
              {value.map((code) => (
                <li key={code} className="chip">
                  {nameOf(code)}
                  {!isReadOnly && (
                    <button
                      type="button"
                      className="chip__remove"
                      aria-label={t('FORM.REMOVE_ITEM', { name: nameOf(code) })}
                      onClick={() => onChange(value.filter((c) => c !== code))}
                    >
                      ×
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
          {!isReadOnly && value.length > 1 && (
            <button
              type="button"
              className="chips__clear"
              onClick={() => {
                onChange([]);
                // The button goes with the chips: focus stays in the field.
                document.getElementById('other_citizenships')?.focus();
              }}
            >
              {t('FORM.COMBOBOX.CLEAR_ALL')}
            </button>
          )}
          {isReadOnly ? (
            <input id="other_citizenships" className="input" readOnly value={value.map(nameOf).join(', ')} />
          ) : (
            <Combobox
              id="other_citizenships"
              texts={comboTexts}
              options={rest}
              value=""
              clearOnSelect
              invalid={invalid}
              describedBy={describedBy}
              onChange={(code) => code && onChange([...value, code])}
            />
          )}
        </>
      )}
    </Field>
  );
}

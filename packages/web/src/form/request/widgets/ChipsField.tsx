import type { FormValues } from '@ros/domain';
import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { Combobox } from '../../../components/Combobox';
import { useT } from '../../../shell/translate';
import { useComboboxTexts } from '../../comboboxTexts';
import { useRequestForm } from '../context';
import { type CommonProps, FramedField, useFieldFrame, useSetField } from '../controls';

/**
 * The control of an `items` entry of countries (the other citizenships): the chosen countries
 * as removable chips above a searchable list of the rest. Read-only (from the register): their
 * names in a read-only box.
 */
export function ChipsField({ path, label, hint, optional, info }: CommonProps) {
  const { t } = useT();
  const { countryOptions } = useRequestForm();
  const comboTexts = useComboboxTexts();
  const set = useSetField();
  const frame = useFieldFrame(path, label, optional);
  const { id, text, readOnly } = frame;
  const value = (useWatch<FormValues>({ name: path }) ?? []) as string[];
  const rest = useMemo(() => countryOptions.filter((o) => !value.includes(o.value)), [countryOptions, value]);
  const nameOf = (code: string) => countryOptions.find((o) => o.value === code)?.label ?? code;
  const onChange = (next: string[]) => set(path, next);
  return (
    <FramedField frame={frame} hint={hint} info={info} className="form-grid__wide">
      {(describedBy, invalid) => (
        <>
          {value.length > 0 && (
            <ul className="chips" id={`${id}-chosen`} aria-label={text}>
              {value.map((code) => (
                <li key={code} className="chip">
                  {nameOf(code)}
                  {!readOnly && (
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
          {!readOnly && value.length > 1 && (
            <button
              type="button"
              className="chips__clear"
              onClick={() => {
                onChange([]);
                // The button goes with the chips: focus stays in the field.
                document.getElementById(id)?.focus();
              }}
            >
              {t('FORM.COMBOBOX.CLEAR_ALL')}
            </button>
          )}
          {readOnly ? (
            <input id={id} className="input" readOnly value={value.map(nameOf).join(', ')} />
          ) : (
            <Combobox
              id={id}
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
    </FramedField>
  );
}

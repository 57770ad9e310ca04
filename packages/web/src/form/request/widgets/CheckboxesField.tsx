import type { CodeListName, FormValues } from '@ros/domain';
import { useWatch } from 'react-hook-form';
import { Checkbox } from '../../../components/Choices';
import { useT } from '../../../shell/translate';
import { itemName } from '../../reference';
import { useRequestForm } from '../context';
import { type CommonProps, useFieldFrame, useSetField } from '../controls';
import { codeItems } from '../lists';

/** A tick of one code: removes it when ticked, else adds it. */
const toggleCode = (current: readonly string[], code: string): string[] =>
  current.includes(code) ? current.filter((c) => c !== code) : [...current, code];

export type CheckboxesProps = CommonProps & {
  list: CodeListName;
  /** The selection after a tick of `code`, where ticking one code unticks another (the section's rule). */
  toggle?: (current: readonly string[], code: string) => string[];
};

/**
 * The control of an `items` entry of a code list (the duplicate's reasons): a checkbox per item
 * in a fieldset, named as the server's list names them (as the PDF prints them). An item the
 * authority switched off is shown but cannot be ticked unless it is ticked already.
 */
export function CheckboxesField({ path, label, optional, list, toggle = toggleCode }: CheckboxesProps) {
  const { t } = useT();
  const { lists, lang } = useRequestForm();
  const { id, text, isOptional, error } = useFieldFrame(path, label, optional);
  const set = useSetField();
  const value = (useWatch<FormValues>({ name: path }) ?? []) as string[];
  return (
    <fieldset
      id={id}
      className={`field fieldset form-grid__wide${error ? ' field--invalid' : ''}`}
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend className="field__label">
        {text}
        {isOptional && <span className="field__optional"> {t('FORM.OPTIONAL')}</span>}
      </legend>
      {codeItems(lists, list).map((item) => (
        <Checkbox
          key={item.code}
          id={`${id}-${item.code}`}
          label={itemName(item, lang)}
          checked={value.includes(item.code)}
          disabled={item.disabled === true && !value.includes(item.code)}
          invalid={Boolean(error)}
          onChange={() => set(path, toggle(value, item.code))}
        />
      ))}
      {error && (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      )}
    </fieldset>
  );
}

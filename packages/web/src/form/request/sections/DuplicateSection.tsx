import { type FormValues, toggleDuplicateType } from '@ros/domain';
import { useWatch } from 'react-hook-form';
import { Checkbox } from '../../../components/Choices';
import { useT } from '../../../shell/translate';
import { useRequestForm } from '../context';
import { useSetField, useShownError } from '../controls';

/**
 * Why a duplicate (a duplicate request's: FORM_SECTIONS): the server list's names, as the PDF has them; one the
 * authority switched off is shown but cannot be ticked. POSKOZENI and ODCIZENI exclude each other.
 */
export function DuplicateSection() {
  const { t } = useT();
  const { lists, lang } = useRequestForm();
  const set = useSetField();
  const value = useWatch<FormValues, 'duplicate_type'>({ name: 'duplicate_type' });
  const error = useShownError('duplicate_type');
  return (
    <section className="card form-section" aria-labelledby="section-duplicate-title" id="section-duplicate">
      <h2 id="section-duplicate-title">{t('FORM.SECTIONS.duplicate')}</h2>
      <fieldset
        id="duplicate_type"
        className={`field fieldset${error ? ' field--invalid' : ''}`}
        aria-describedby={error ? 'duplicate_type-error' : undefined}
      >
        <legend className="field__label">{t('FORM.FIELDS.duplicate_type')}</legend>
        {lists.duplicateTypes.map((item) => (
          <Checkbox
            key={item.code}
            id={`duplicate_type-${item.code}`}
            label={lang === 'en' ? item.name_en : item.name_cz}
            checked={value.includes(item.code)}
            disabled={item.disabled === true && !value.includes(item.code)}
            invalid={Boolean(error)}
            onChange={() => set('duplicate_type', toggleDuplicateType(value, item.code))}
          />
        ))}
        {error && (
          <p id="duplicate_type-error" className="field__error">
            {error}
          </p>
        )}
      </fieldset>
    </section>
  );
}

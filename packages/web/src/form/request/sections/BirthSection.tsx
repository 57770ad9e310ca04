import { birthStateChangePatch, type FormValues } from '@ros/domain';
import { type Path, useFormContext, useWatch } from 'react-hook-form';
import { DateInput } from '../../../components/DateInput';
import { useT } from '../../../shell/translate';
import { Field } from '../../LabelledField';
import { useRequestForm } from '../context';
import { useSetField, useShownError } from '../controls';
import { SectionFields } from '../SectionFields';

/**
 * Date and place of birth (a new request's: FORM_SECTIONS). A Czech birth picks the municipality
 * from the list and its district follows; elsewhere the place is free text and the district not
 * shown (the catalogue's `freeText` and `enabled`).
 */
export function BirthSection() {
  const { t } = useT();
  const { readOnly } = useRequestForm();
  const { setValue } = useFormContext<FormValues>();
  const set = useSetField();
  // The district follows the birth country by its entry (`enabled`, `whenOff`: CatalogueField).
  const birthDate = useWatch<FormValues, 'birth_date'>({ name: 'birth_date' });
  const dateError = useShownError('birth_date');

  const onBirthState = (next: string, previous: string) => {
    const patch: Partial<FormValues> = { ...birthStateChangePatch(previous, next) };
    // A place typed for one foreign country is not a place in another: it goes too.
    if (previous !== '' && previous !== next) patch.birth_municipality = '';
    for (const [k, v] of Object.entries(patch)) setValue(k as Path<FormValues>, v as never);
  };

  return (
    <SectionFields
      name="birth"
      place={{
        // A date of its own widget (dd.mm.yyyy, stored ISO).
        birth_date: () => (
          <Field
            id="birth_date"
            label={t('FORM.FIELDS.birth_date')}
            hint={readOnly.has('birth_date') ? undefined : t('FORM.HINTS.birth_date')}
            error={dateError}
          >
            {(describedBy, invalid) => (
              <DateInput
                id="birth_date"
                value={birthDate}
                readOnly={readOnly.has('birth_date')}
                describedBy={describedBy}
                invalid={invalid}
                onChange={(iso) => set('birth_date', iso)}
              />
            )}
          </Field>
        ),
        birth_state: { onChange: onBirthState },
        // A list choice for a birth in CZ (its district follows: MunicipalityField), free text
        // elsewhere (the catalogue's `freeText`).
        birth_municipality: { hint: t('FORM.HINTS.birth_municipality_abroad') },
      }}
    />
  );
}

import { birthStateChangePatch, type FormValues, isFieldEnabled } from '@ros/domain';
import { type Path, useFormContext, useWatch } from 'react-hook-form';
import { DateInput } from '../../../components/DateInput';
import { useT } from '../../../shell/translate';
import { Field } from '../../LabelledField';
import { CatalogueField } from '../CatalogueField';
import { useRequestForm } from '../context';
import { Section, useSetField, useShownError } from '../controls';

/**
 * Date and place of birth (a new request's: FORM_SECTIONS). A Czech birth picks the municipality
 * from the list and its district follows; elsewhere the place is free text and the district not
 * shown (the catalogue's `freeText` and `enabled`).
 */
export function BirthSection() {
  const { t } = useT();
  const { ctx, readOnly } = useRequestForm();
  const { getValues, setValue } = useFormContext<FormValues>();
  const set = useSetField();
  // The birth country re-renders the section: the district follows it (the catalogue's `enabled`).
  const [birthDate] = useWatch<FormValues, ['birth_date', 'birth_state']>({
    name: ['birth_date', 'birth_state'],
  });
  const dateError = useShownError('birth_date');

  const onBirthState = (next: string, previous: string) => {
    const patch: Partial<FormValues> = { ...birthStateChangePatch(previous, next) };
    // A place typed for one foreign country is not a place in another: it goes too.
    if (previous !== '' && previous !== next) patch.birth_municipality = '';
    for (const [k, v] of Object.entries(patch)) setValue(k as Path<FormValues>, v as never);
  };

  return (
    <Section name="birth">
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
      <CatalogueField path="birth_state" onChange={onBirthState} />
      {/* A list choice for a birth in CZ (its district follows: MunicipalityField), free text
          elsewhere (the catalogue's `freeText`). */}
      <CatalogueField path="birth_municipality" hint={t('FORM.HINTS.birth_municipality_abroad')} />
      {/* Only for a birth in the Czech Republic (spec section 2; issue 36: not a disabled box). */}
      {isFieldEnabled('birth_district', getValues(), ctx) && <CatalogueField path="birth_district" />}
    </Section>
  );
}

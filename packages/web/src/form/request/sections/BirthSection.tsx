import { birthStateChangePatch, type FormValues } from '@ros/domain';
import { type Path, useFormContext } from 'react-hook-form';
import { useT } from '../../../shell/translate';
import { SectionFields } from '../SectionFields';

/**
 * Date and place of birth (a new request's: FORM_SECTIONS). The date is its kind's box
 * (CatalogueField's DateField); the district follows the birth country by its entry (`enabled`,
 * `whenOff`). A Czech birth picks the municipality
 * from the list and its district follows; elsewhere the place is free text and the district not
 * shown (the catalogue's `freeText` and `enabled`).
 */
export function BirthSection() {
  const { t } = useT();
  const { setValue } = useFormContext<FormValues>();

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
        birth_date: { autoComplete: 'bday' },
        birth_state: { onChange: onBirthState },
        // A list choice for a birth in CZ (its district follows: MunicipalityField), free text
        // elsewhere (the catalogue's `freeText`).
        birth_municipality: { hint: t('FORM.HINTS.birth_municipality_abroad') },
      }}
    />
  );
}

import { type FormValues, isBirthNumberEnabled, isFieldEnabled, isFieldHidden } from '@ros/domain';
import { useFormContext, useWatch } from 'react-hook-form';
import { useT } from '../../../shell/translate';
import { CatalogueField } from '../CatalogueField';
import { useRequestForm } from '../context';
import { Section } from '../controls';
import { OtherCitizenships } from './OtherCitizenships';

/** Birth number, identity document and citizenships. */
export function IdentitySection() {
  const { t } = useT();
  const { ctx, readOnly } = useRequestForm();
  const { getValues, setValue } = useFormContext<FormValues>();
  // The main citizenship re-renders the section: the second follows it (the catalogue's `enabled`).
  const [birthDate] = useWatch<FormValues, ['birth_date', 'citizen_of_1']>({
    name: ['birth_date', 'citizen_of_1'],
  });
  // Duplicate mode hides the birth date, so it cannot gate the birth number there.
  const bnEnabled = isFieldHidden('birth_date', ctx) || isBirthNumberEnabled(birthDate);
  return (
    <Section name="identity">
      <CatalogueField
        path="birth_number"
        disabled={!bnEnabled && !readOnly.has('birth_number')}
        hint={t(bnEnabled ? 'FORM.HINTS.birth_number' : 'FORM.HINTS.birth_number_disabled')}
        info={t('FORM.TOOLTIPS.FIELDS.birth_number')}
      />
      <CatalogueField path="document_type" />
      <CatalogueField path="document_number" info={t('FORM.TOOLTIPS.FIELDS.document_number')} />
      <CatalogueField
        path="citizen_of_1"
        onChange={() => {
          // Called with the new value set: a second citizenship that is now off goes.
          if (!isFieldEnabled('citizen_of_2', getValues(), ctx)) setValue('citizen_of_2', '');
        }}
      />
      <CatalogueField path="citizen_of_2" disabled={!isFieldEnabled('citizen_of_2', getValues(), ctx)} />
      {!isFieldHidden('other_citizenships', ctx) && <OtherCitizenships />}
    </Section>
  );
}

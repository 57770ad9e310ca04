import { type FormValues, isFieldHidden } from '@ros/domain';
import { useFormContext } from 'react-hook-form';
import { CatalogueField } from '../CatalogueField';
import { useRequestForm } from '../context';
import { Section } from '../controls';

/** Names and sex. The last name copies into the birth name until the birth name is edited. */
export function PersonalSection() {
  const { ctx, readOnly, birthNameTouched, setBirthNameTouched } = useRequestForm();
  const { setValue } = useFormContext<FormValues>();
  return (
    <Section name="personal">
      <CatalogueField path="first_name" autoComplete="given-name" />
      <CatalogueField
        path="last_name"
        autoComplete="family-name"
        onChange={(v) => {
          if (!birthNameTouched && !readOnly.has('birth_name')) setValue('birth_name', v);
        }}
      />
      <CatalogueField
        path="birth_name"
        onChange={() => {
          if (!birthNameTouched) setBirthNameTouched(true);
        }}
      />
      {!isFieldHidden('sex', ctx) && <CatalogueField path="sex" />}
    </Section>
  );
}

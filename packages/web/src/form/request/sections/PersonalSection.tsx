import { type FormValues, isFieldHidden, SEX_CODES } from '@ros/domain';
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useRequestForm } from '../context';
import { Section, SelectField, TextField } from '../controls';

/** Names and sex. The last name copies into the birth name until the birth name is edited. */
export function PersonalSection() {
  const { t } = useTranslation();
  const { ctx, readOnly, birthNameTouched, setBirthNameTouched } = useRequestForm();
  const { setValue } = useFormContext<FormValues>();
  return (
    <Section name="personal">
      <TextField path="first_name" autoComplete="given-name" />
      <TextField
        path="last_name"
        autoComplete="family-name"
        onChange={(v) => {
          if (!birthNameTouched && !readOnly.has('birth_name')) setValue('birth_name', v);
        }}
      />
      <TextField
        path="birth_name"
        onChange={() => {
          if (!birthNameTouched) setBirthNameTouched(true);
        }}
      />
      {!isFieldHidden('sex', ctx) && (
        <SelectField path="sex" items={SEX_CODES.map((c) => ({ code: c, name: t(`FORM.SEX.${c}`) }))} />
      )}
    </Section>
  );
}

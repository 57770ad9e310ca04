import type { FormValues } from '@ros/domain';
import { useFormContext } from 'react-hook-form';
import { useRequestForm } from '../context';
import { SectionFields } from '../SectionFields';

/** Names and sex. The last name copies into the birth name until the birth name is edited. */
export function PersonalSection() {
  const { readOnly, birthNameTouched, setBirthNameTouched } = useRequestForm();
  const { setValue } = useFormContext<FormValues>();
  return (
    <SectionFields
      name="personal"
      place={{
        first_name: { autoComplete: 'given-name' },
        last_name: {
          autoComplete: 'family-name',
          onChange: (v) => {
            if (!birthNameTouched && !readOnly.has('birth_name')) setValue('birth_name', v);
          },
        },
        birth_name: {
          onChange: () => {
            if (!birthNameTouched) setBirthNameTouched(true);
          },
        },
      }}
    />
  );
}

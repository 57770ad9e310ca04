import { type FormValues, isBirthNumberEnabled, isFieldHidden } from '@ros/domain';
import { useWatch } from 'react-hook-form';
import { useT } from '../../../shell/translate';
import { useRequestForm } from '../context';
import { SectionFields } from '../SectionFields';

/** Birth number, identity document and citizenships (the other citizenships: chips, by their kind). */
export function IdentitySection() {
  const { t } = useT();
  const { ctx, readOnly } = useRequestForm();
  // The birth number waits for a valid birth date (the second citizenship follows the first by
  // its entry's `enabled` and `whenOff`: CatalogueField).
  const birthDate = useWatch<FormValues, 'birth_date'>({ name: 'birth_date' });
  // Duplicate mode hides the birth date, so it cannot gate the birth number there.
  const bnEnabled = isFieldHidden('birth_date', ctx) || isBirthNumberEnabled(birthDate);
  return (
    <SectionFields
      name="identity"
      place={{
        // Before a valid birth date: disabled, and its hint says why (else its own hint).
        birth_number: {
          disabled: !bnEnabled && !readOnly.has('birth_number'),
          ...(bnEnabled ? {} : { hint: t('FORM.HINTS.birth_number_disabled') }),
        },
      }}
    />
  );
}

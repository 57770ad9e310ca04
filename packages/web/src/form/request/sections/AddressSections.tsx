import type { FormValues } from '@ros/domain';
import { useState } from 'react';
import { type Path, useFormContext } from 'react-hook-form';
import { Button } from '../../../components/Button';
import { useT } from '../../../shell/translate';
import { useRequestForm } from '../context';
import { useSetField } from '../controls';
import { SectionFields } from '../SectionFields';

/** The permanent address. */
export function HomeAddressSection() {
  return (
    <SectionFields
      name="home"
      place={{
        home_street: { autoComplete: 'address-line1' },
        home_city: { autoComplete: 'address-level2' },
        home_zip: { autoComplete: 'postal-code' },
      }}
    />
  );
}

const COPIED: ReadonlyArray<[Path<FormValues>, keyof FormValues]> = [
  ['contact_street', 'home_street'],
  ['contact_house_num', 'home_house_num'],
  ['contact_org_num', 'home_org_num'],
  ['contact_city', 'home_city'],
  ['contact_zip', 'home_zip'],
  ['contact_state', 'home_state'],
];

/**
 * The contact address, with a button that copies the permanent one: always in a new request; in a
 * duplicate request when the contact address starts empty and none of it is the register's
 * (issue 28: a person without a contact address had to type the permanent one again).
 */
export function ContactAddressSection() {
  const { t } = useT();
  const { duplicate, readOnly } = useRequestForm();
  const { getValues } = useFormContext<FormValues>();
  const [offerCopy] = useState(() => {
    if (!duplicate) return true;
    const v = getValues();
    return COPIED.every(([to]) => !readOnly.has(to as never) && !v[to as keyof FormValues]);
  });
  const set = useSetField();
  const copyHomeAddress = () => {
    const v = getValues();
    for (const [to, from] of COPIED) set(to, v[from]);
  };
  return (
    <SectionFields
      name="contact_address"
      place={{ contact_company: { autoComplete: 'organization' } }}
      intro={
        offerCopy && (
          <p className="form-section__action">
            <Button variant="outlined" onClick={copyHomeAddress} data-testid="copy-home">
              {t('FORM.COPY_HOME')}
            </Button>
          </p>
        )
      }
    />
  );
}

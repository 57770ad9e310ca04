import {
  availableDeliveryTypes,
  DELIVERY_DATA_MAILBOX,
  dataMailboxError,
  type FormValues,
  isDataMailboxShown,
} from '@ros/domain';
import { useEffect } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { CatalogueField } from '../CatalogueField';
import { useRequestForm } from '../context';
import { SectionFields } from '../SectionFields';

/**
 * Telephone, e-mail, data mailbox and delivery. DATOVKOU is offered only with a known data mailbox
 * (from the register, or a valid one typed in); the data mailbox is required only for DATOVKOU
 * (docs/requirements.md, product decisions, "Data mailbox").
 */
export function ContactSection() {
  const { ctx } = useRequestForm();
  const { getValues, setValue } = useFormContext<FormValues>();
  const [telephone, dataMailbox, delivery] = useWatch<
    FormValues,
    ['telephone', 'data_mailbox', 'delivery_type']
  >({ name: ['telephone', 'data_mailbox', 'delivery_type'] });
  const mailboxShown = isDataMailboxShown(ctx);
  const hasDataMailbox =
    ctx.dataMailboxDelivery || (mailboxShown && dataMailbox !== '' && dataMailboxError(dataMailbox) === null);

  // DATOVKOU disappears with the data mailbox: a choice of it goes with it.
  useEffect(() => {
    if (delivery === DELIVERY_DATA_MAILBOX && !hasDataMailbox) {
      setValue('delivery_type', '', { shouldDirty: true });
    }
  }, [delivery, hasDataMailbox, setValue]);
  // The SMS notification needs a telephone: removing the number clears the choice.
  const noPhone = telephone.trim() === '';
  useEffect(() => {
    if (noPhone && getValues('send_notifications_phone')) setValue('send_notifications_phone', false);
  }, [noPhone, getValues, setValue]);

  return (
    <SectionFields
      name="contact"
      place={{
        // The dial code and the telephone side by side.
        dial_code: () => (
          <div className="field-group form-grid__wide">
            <CatalogueField path="dial_code" noEmpty />
            <CatalogueField path="telephone" />
          </div>
        ),
        telephone: null,
        data_mailbox: mailboxShown ? {} : null,
        delivery_type: { offer: (items) => availableDeliveryTypes(items, hasDataMailbox) },
      }}
    />
  );
}

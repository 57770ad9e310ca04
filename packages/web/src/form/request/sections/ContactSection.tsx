import {
  availableDeliveryTypes,
  DELIVERY_DATA_MAILBOX,
  dataMailboxError,
  type FormValues,
  isDataMailboxShown,
} from '@ros/domain';
import { useEffect } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { itemName } from '../../reference';
import { useRequestForm } from '../context';
import { Section, SelectField, TextField } from '../controls';

/**
 * Telephone, e-mail, data mailbox and delivery. DATOVKOU is offered only with a known data
 * mailbox (from the register, or a valid one typed in); the data mailbox is required only
 * for DATOVKOU (PRODUCT.md decision).
 */
export function ContactSection() {
  const { t } = useTranslation();
  const { ctx, lists, lang } = useRequestForm();
  const { getValues, setValue } = useFormContext<FormValues>();
  const [telephone, dataMailbox, delivery] = useWatch<
    FormValues,
    ['telephone', 'data_mailbox', 'delivery_type']
  >({ name: ['telephone', 'data_mailbox', 'delivery_type'] });
  const mailboxShown = isDataMailboxShown(ctx);
  const hasDataMailbox =
    ctx.dataMailboxDelivery || (mailboxShown && dataMailbox !== '' && dataMailboxError(dataMailbox) === null);
  const deliveryTypes = availableDeliveryTypes(lists.deliveryTypes, hasDataMailbox);

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
    <Section name="contact">
      <div className="field-group form-grid__wide">
        <SelectField
          path="dial_code"
          // The code first, then the country in brackets: the code stays visible in a narrow box.
          items={lists.dialCodes.map((d) => ({ code: d.code, name: `${d.code} (${itemName(d, lang)})` }))}
          optional={false}
          noEmpty
        />
        <TextField
          path="telephone"
          inputMode="tel"
          autoComplete="tel-national"
          hint={t('FORM.HINTS.telephone')}
        />
      </div>
      <TextField path="email" type="email" inputMode="email" autoComplete="email" />
      {mailboxShown && (
        <TextField
          path="data_mailbox"
          hint={t('FORM.HINTS.data_mailbox')}
          info={t('FORM.TOOLTIPS.FIELDS.data_mailbox')}
        />
      )}
      <SelectField
        path="delivery_type"
        items={deliveryTypes.map((i) => ({ code: i.code, name: itemName(i, lang) }))}
        info={t('FORM.TOOLTIPS.FIELDS.delivery_type')}
      />
    </Section>
  );
}

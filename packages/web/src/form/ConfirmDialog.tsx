import { useId, useRef, useState } from 'react';
import { Button } from '../components/Button';
import { Checkbox } from '../components/Choices';
import { Spinner } from '../components/Spinner';
import { useLang } from '../shell/lang';
import { useMetadata } from '../shell/metadata';
import { useT } from '../shell/translate';
import { BotCheckWidget } from './botcheck';
import type { ValidateAnswer } from './submit';
import { useDialogFocus } from './useDialogFocus';

/** The dialog's look: the normal one, or a warning that the server will likely not grant it. */
export type ConfirmVariant = 'default' | 'invalidDate' | 'invalidDuplicates';

export function confirmVariant(answer: ValidateAnswer, duplicate: boolean): ConfirmVariant {
  if (duplicate && !answer.okDuplications) return 'invalidDuplicates';
  if (!duplicate && !answer.okDate) return 'invalidDate';
  return 'default';
}

// The bot-check module is small and part of the form's chunk (the search step needs it too);
// the widget's own code (altcha) is what is loaded on demand, inside botcheck.tsx.

const REQUIRED = ['SIGNATURE', 'AFFIDAVIT', 'PURPOSE'] as const;

export interface ConfirmDialogProps {
  variant: ConfirmVariant;
  /** Signed in through NIA with a complete identity: the request needs no signature on paper. */
  nia?: boolean;
  email: string;
  telephone: string;
  notifyEmail: boolean;
  notifyPhone: boolean;
  onNotifyEmail: (v: boolean) => void;
  onNotifyPhone: (v: boolean) => void;
  processing: boolean;
  onSubmit: () => void;
  onClose: () => void;
}

/**
 * The confirmation dialog before sending (spec section 2 "Confirmation dialog"): three required
 * declarations, two optional notifications (SMS only with a telephone), the bot check, and the
 * send button, which cannot send until 1-3 are ticked nor while sending. It stays focusable
 * (aria-disabled) with the reason beside it, so a keyboard user can learn why and focus does not
 * drop to the page while sending. Focus starts on the title, so the dialog opens at its top (also
 * at 400 % zoom) and its description (the warning of a variant, then the intro) is read out.
 * Tab stays inside; Escape and the cancel button close it (not while sending); the opener puts
 * focus back on the finish button.
 */
export function ConfirmDialog({
  variant,
  nia = false,
  email,
  telephone,
  notifyEmail,
  notifyPhone,
  onNotifyEmail,
  onNotifyPhone,
  processing,
  onSubmit,
  onClose,
}: ConfirmDialogProps) {
  const { t } = useT();
  const lang = useLang();
  const metadata = useMetadata();
  const uid = useId().replace(/:/g, '');
  const [ticked, setTicked] = useState<Record<string, boolean>>({});
  const titleRef = useRef<HTMLHeadingElement>(null);
  const hasPhone = telephone.trim() !== '';
  const allRequired = REQUIRED.every((k) => ticked[k]);
  const canSubmit = allRequired && !processing;
  // Not while sending; the opener puts focus back on the finish button (or the success view).
  const { ref, onKeyDown } = useDialogFocus(
    () => {
      if (!processing) onClose();
    },
    { returnFocus: false, initialFocus: titleRef },
  );

  const check = (key: string, label: string) => (
    <Checkbox
      id={`${uid}-${key.toLowerCase()}`}
      name={key.toLowerCase()}
      data-testid={`confirm-${key.toLowerCase()}`}
      label={label}
      checked={Boolean(ticked[key])}
      required
      disabled={processing}
      onChange={(on) => setTicked((prev) => ({ ...prev, [key]: on }))}
    />
  );

  const buttonKey =
    variant === 'invalidDate'
      ? 'SUBMIT.DIALOG.SEND_ANYWAY'
      : variant === 'invalidDuplicates'
        ? 'SUBMIT.DIALOG.SEND_DUPLICATE_ANYWAY'
        : 'SUBMIT.DIALOG.SEND';
  const gateId = `${uid}-gate`;

  return (
    <div className="modal-backdrop">
      <div
        ref={ref}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${uid}-title`}
        aria-describedby={variant === 'default' ? `${uid}-intro` : `${uid}-warning ${uid}-intro`}
        aria-busy={processing || undefined}
        onKeyDown={onKeyDown}
        data-testid="confirm-dialog"
        data-variant={variant}
      >
        <h2 id={`${uid}-title`} ref={titleRef} tabIndex={-1} className="modal__title">
          {t('SUBMIT.DIALOG.TITLE')}
        </h2>
        {variant !== 'default' && (
          <div
            className="form-notice form-notice--warning"
            id={`${uid}-warning`}
            data-testid="confirm-warning"
          >
            <p>
              {t(
                variant === 'invalidDate'
                  ? 'ALERTS.FORM_REQUEST_DATE_INVALID'
                  : 'ALERTS.FORM_REQUEST_DUPLICATES_INVALID',
              )}
            </p>
            <p>{t('SUBMIT.DIALOG.WARNING_NOTE')}</p>
          </div>
        )}
        <p id={`${uid}-intro`}>{t('SUBMIT.DIALOG.INTRO')}</p>
        <fieldset className="fieldset">
          <legend className="field__label">{t('SUBMIT.DIALOG.REQUIRED_LEGEND')}</legend>
          {check('SIGNATURE', t(nia ? 'SUBMIT.DIALOG.SIGNATURE_NIA' : 'SUBMIT.DIALOG.SIGNATURE'))}
          {check('AFFIDAVIT', t('SUBMIT.DIALOG.AFFIDAVIT'))}
          {check('PURPOSE', t('SUBMIT.DIALOG.PURPOSE'))}
        </fieldset>
        <fieldset className="fieldset">
          <legend className="field__label">{t('SUBMIT.DIALOG.OPTIONAL_LEGEND')}</legend>
          <Checkbox
            id={`${uid}-notify-email`}
            name="notify_email"
            data-testid="confirm-email"
            label={t('SUBMIT.DIALOG.NOTIFY_EMAIL', { email })}
            checked={notifyEmail}
            disabled={processing}
            onChange={onNotifyEmail}
          />
          <Checkbox
            id={`${uid}-notify-phone`}
            name="notify_phone"
            data-testid="confirm-phone"
            label={
              hasPhone
                ? t('SUBMIT.DIALOG.NOTIFY_PHONE', { phone: telephone })
                : t('SUBMIT.DIALOG.NOTIFY_PHONE_GENERIC')
            }
            checked={hasPhone && notifyPhone}
            disabled={processing || !hasPhone}
            describedBy={hasPhone ? undefined : `${uid}-phone-hint`}
            onChange={onNotifyPhone}
          />
          {!hasPhone && (
            <p id={`${uid}-phone-hint`} className="field__hint">
              {t('SUBMIT.DIALOG.NOTIFY_PHONE_DISABLED')}
            </p>
          )}
        </fieldset>
        <BotCheckWidget settings={metadata} lang={lang} />
        {!allRequired && (
          <p className="field__hint" id={gateId}>
            {t('SUBMIT.DIALOG.GATE')}
          </p>
        )}
        <div className="modal__actions">
          <Button
            onClick={() => {
              if (canSubmit) onSubmit();
            }}
            aria-disabled={!canSubmit || undefined}
            aria-describedby={allRequired ? undefined : gateId}
            data-testid="confirm-submit"
          >
            {t(buttonKey)}
          </Button>
          <Button
            variant="outlined"
            onClick={() => {
              if (!processing) onClose();
            }}
            aria-disabled={processing || undefined}
          >
            {t('SUBMIT.DIALOG.CANCEL')}
          </Button>
        </div>
        {processing && <Spinner label={t('SUBMIT.DIALOG.SENDING')} />}
      </div>
    </div>
  );
}

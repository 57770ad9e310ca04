import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../components/Button';
import { Spinner } from '../components/Spinner';
import { useLang } from '../shell/lang';
import { useMetadata } from '../shell/metadata';
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

/**
 * The confirmation dialog before sending (spec section 2 "Confirmation dialog"): three required
 * declarations, two optional notifications (SMS only with a telephone), the bot check, and the
 * submit button, disabled until 1-3 are ticked and while sending. Tab stays inside, Escape and
 * the cancel button close it (not while sending); the opener puts focus back on the finish button.
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
}: {
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
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const metadata = useMetadata();
  const uid = useId().replace(/:/g, '');
  const [ticked, setTicked] = useState<Record<string, boolean>>({});
  const hasPhone = telephone.trim() !== '';
  const allRequired = REQUIRED.every((k) => ticked[k]);
  const canSubmit = allRequired && !processing;
  // Not while sending; the opener puts focus back on the finish button (or the success view).
  const { ref, onKeyDown } = useDialogFocus(
    () => {
      if (!processing) onClose();
    },
    { returnFocus: false },
  );

  const check = (key: string, label: string, opts: { required?: boolean; hint?: string } = {}) => (
    <div>
      <label className="check" style={{ alignItems: 'flex-start' }}>
        <input
          type="checkbox"
          name={key.toLowerCase()}
          data-testid={`confirm-${key.toLowerCase()}`}
          checked={Boolean(ticked[key])}
          aria-required={opts.required || undefined}
          disabled={processing}
          onChange={(e) => setTicked((prev) => ({ ...prev, [key]: e.target.checked }))}
        />
        <span>{label}</span>
      </label>
    </div>
  );

  const buttonKey =
    variant === 'invalidDate'
      ? 'SUBMIT.DIALOG.SEND_ANYWAY'
      : variant === 'invalidDuplicates'
        ? 'SUBMIT.DIALOG.SEND_DUPLICATE_ANYWAY'
        : 'SUBMIT.DIALOG.SEND';

  return (
    <div className="modal-backdrop">
      <div
        ref={ref}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${uid}-title`}
        aria-describedby={`${uid}-intro`}
        aria-busy={processing || undefined}
        onKeyDown={onKeyDown}
        data-testid="confirm-dialog"
        data-variant={variant}
      >
        <h2 id={`${uid}-title`} className="modal__title">
          {t('SUBMIT.DIALOG.TITLE')}
        </h2>
        {variant !== 'default' && (
          <div className="error-summary" data-testid="confirm-warning">
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
        <fieldset className="field">
          <legend className="field__label">{t('SUBMIT.DIALOG.REQUIRED_LEGEND')}</legend>
          <div>
            {check('SIGNATURE', t(nia ? 'SUBMIT.DIALOG.SIGNATURE_NIA' : 'SUBMIT.DIALOG.SIGNATURE'), {
              required: true,
            })}
            {check('AFFIDAVIT', t('SUBMIT.DIALOG.AFFIDAVIT'), { required: true })}
            {check('PURPOSE', t('SUBMIT.DIALOG.PURPOSE'), { required: true })}
          </div>
        </fieldset>
        <fieldset className="field">
          <legend className="field__label">{t('SUBMIT.DIALOG.OPTIONAL_LEGEND')}</legend>
          <div>
            <div>
              <label className="check" style={{ alignItems: 'flex-start' }}>
                <input
                  type="checkbox"
                  name="notify_email"
                  data-testid="confirm-email"
                  checked={notifyEmail}
                  disabled={processing}
                  onChange={(e) => onNotifyEmail(e.target.checked)}
                />
                <span>{t('SUBMIT.DIALOG.NOTIFY_EMAIL', { email })}</span>
              </label>
            </div>
            <div>
              <label className="check" style={{ alignItems: 'flex-start' }}>
                <input
                  type="checkbox"
                  name="notify_phone"
                  data-testid="confirm-phone"
                  checked={hasPhone && notifyPhone}
                  disabled={processing || !hasPhone}
                  aria-describedby={hasPhone ? undefined : `${uid}-phone-hint`}
                  onChange={(e) => onNotifyPhone(e.target.checked)}
                />
                <span>
                  {hasPhone
                    ? t('SUBMIT.DIALOG.NOTIFY_PHONE', { phone: telephone })
                    : t('SUBMIT.DIALOG.NOTIFY_PHONE_GENERIC')}
                </span>
              </label>
              {!hasPhone && (
                <p id={`${uid}-phone-hint`} className="field__hint">
                  {t('SUBMIT.DIALOG.NOTIFY_PHONE_DISABLED')}
                </p>
              )}
            </div>
          </div>
        </fieldset>
        <BotCheckWidget settings={metadata} lang={lang} />
        {!allRequired && (
          <p className="field__hint" id={`${uid}-gate`}>
            {t('SUBMIT.DIALOG.GATE')}
          </p>
        )}
        <div className="modal__actions" style={{ gap: '0.75rem', flexWrap: 'wrap' }}>
          <Button variant="outlined" onClick={() => onClose()} disabled={processing}>
            {t('SUBMIT.DIALOG.CANCEL')}
          </Button>
          <Button
            onClick={() => {
              if (canSubmit) onSubmit();
            }}
            disabled={!canSubmit}
            aria-describedby={allRequired ? undefined : `${uid}-gate`}
            data-testid="confirm-submit"
          >
            {t(buttonKey)}
          </Button>
        </div>
        {processing && <Spinner label={t('SUBMIT.DIALOG.SENDING')} />}
      </div>
    </div>
  );
}

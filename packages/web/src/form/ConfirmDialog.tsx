import {
  type ContactDetails,
  currentLegalVersion,
  DECLARATION_KEYS,
  type DeclarationKey,
  type LegalChannel,
  legalStatements,
  type RefusalReason,
  type StatementKey,
} from '@ros/domain';
import { useId, useState } from 'react';
import { Button } from '../components/Button';
import { Checkbox } from '../components/Choices';
import { Dialog } from '../components/Dialog';
import { useLang } from '../shell/lang';
import { useMetadata } from '../shell/metadata';
import { useT } from '../shell/translate';
import { BotCheckWidget } from './botcheck';
import { reasonText } from './refusalText';
import type { Agreement, ValidateAnswer } from './submit';

/** The dialog's look: the normal one, or a warning that the server will likely not grant it. */
export type ConfirmVariant = 'default' | 'invalidDate' | 'invalidDuplicates';

export function confirmVariant(answer: ValidateAnswer, duplicate: boolean): ConfirmVariant {
  if (duplicate && !answer.okDuplications) return 'invalidDuplicates';
  if (!duplicate && !answer.okDate) return 'invalidDate';
  return 'default';
}

// The bot-check module is small and part of the form's chunk (the search step needs it too);
// the widget's own code (altcha) is what is loaded on demand, inside botcheck.tsx.

export interface ConfirmDialogProps {
  variant: ConfirmVariant;
  /** invalidDate: the one rule that applies, with its dates (validate's `reason`, issue 28). */
  reason?: RefusalReason;
  /** Signed in through NIA with a complete identity: the request needs no signature on paper. */
  nia?: boolean;
  /** Signed in through NIA decides the texts' channel; duplicate their mode. */
  duplicate: boolean;
  /** The applicant's e-mail, telephone and dial code (the legal texts name them). */
  contact: ContactDetails;
  notifyEmail: boolean;
  notifyPhone: boolean;
  onNotifyEmail: (v: boolean) => void;
  onNotifyPhone: (v: boolean) => void;
  processing: boolean;
  onSubmit: (agreement: Agreement) => void;
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
  reason,
  nia = false,
  duplicate,
  contact,
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
  const [ticked, setTicked] = useState<Record<DeclarationKey, boolean>>({
    signature: false,
    affidavit: false,
    purpose: false,
  });
  const hasPhone = contact.telephone.trim() !== '';
  // The legal texts of @ros/domain, the ones the PDF prints for this request (issue 22).
  const version = currentLegalVersion();
  const channel: LegalChannel = nia ? 'nia' : 'paper';
  const statements = legalStatements(version, lang, { channel, duplicate }, contact);
  const textOf = (key: StatementKey) => statements.find((s) => s.key === key)?.text ?? '';
  const allRequired = DECLARATION_KEYS.every((k) => ticked[k]);
  const canSubmit = allRequired && !processing;
  // Not while sending.
  const cancel = () => {
    if (!processing) onClose();
  };

  const check = (key: DeclarationKey) => (
    <Checkbox
      key={key}
      id={`${uid}-${key}`}
      name={key}
      data-testid={`confirm-${key}`}
      label={textOf(key)}
      checked={ticked[key]}
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
    <Dialog
      title={t('SUBMIT.DIALOG.TITLE')}
      initialFocus="title"
      // Back to the finish button (also when it was not focused: a click in Safari), or the success view.
      returnFocus={{ to: () => document.getElementById('finish') }}
      onCancel={cancel}
      testId="confirm-dialog"
      attrs={{ 'data-variant': variant, 'aria-busy': processing || undefined }}
      text={
        <>
          {variant !== 'default' && (
            <div className="form-notice form-notice--warning" data-testid="confirm-warning">
              <p>
                {variant === 'invalidDate' && reason
                  ? reasonText(reason, lang, t)
                  : t(
                      variant === 'invalidDate'
                        ? 'ALERTS.FORM_REQUEST_DATE_INVALID'
                        : 'ALERTS.FORM_REQUEST_DUPLICATES_INVALID',
                    )}
              </p>
              <p>{t('SUBMIT.DIALOG.WARNING_NOTE')}</p>
            </div>
          )}
          <p>{t('SUBMIT.DIALOG.INTRO')}</p>
        </>
      }
      actions={
        <>
          <Button
            onClick={() => {
              if (canSubmit) onSubmit({ version, channel, ticked });
            }}
            aria-disabled={!canSubmit || undefined}
            aria-describedby={allRequired ? undefined : gateId}
            data-testid="confirm-submit"
          >
            {processing ? t('SUBMIT.DIALOG.SENDING') : t(buttonKey)}
          </Button>
          <Button variant="outlined" onClick={cancel} aria-disabled={processing || undefined}>
            {t('SUBMIT.DIALOG.CANCEL')}
          </Button>
        </>
      }
      after={
        // In the page from the start, so that "Sending…" is announced when it appears (a live
        // region added with its text is often not read out; issue 27).
        <div role="status" className={processing ? 'spinner' : undefined} data-testid="confirm-progress">
          {processing && (
            <>
              <span className="spinner__circle" aria-hidden="true" />
              <span className="spinner__label">{t('SUBMIT.DIALOG.SENDING')}</span>
            </>
          )}
        </div>
      }
    >
      <fieldset className="fieldset">
        <legend className="field__label">{t('SUBMIT.DIALOG.REQUIRED_LEGEND')}</legend>
        {DECLARATION_KEYS.map(check)}
      </fieldset>
      <fieldset className="fieldset">
        <legend className="field__label">{t('SUBMIT.DIALOG.OPTIONAL_LEGEND')}</legend>
        <Checkbox
          id={`${uid}-notify-email`}
          name="notify_email"
          data-testid="confirm-email"
          label={textOf('notify_email')}
          checked={notifyEmail}
          disabled={processing}
          onChange={onNotifyEmail}
        />
        <Checkbox
          id={`${uid}-notify-phone`}
          name="notify_phone"
          data-testid="confirm-phone"
          label={textOf('notify_phone')}
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
    </Dialog>
  );
}

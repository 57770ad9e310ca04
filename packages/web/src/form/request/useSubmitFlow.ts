import type { FormValues, RefusalReason } from '@ros/domain';
import { useRef, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { BotCheckSettings } from '../botcheck';
import { isBotCheckRefusal } from '../botRefusal';
import { type ConfirmVariant, confirmVariant } from '../ConfirmDialog';
import { clearDraft } from '../draft';
import {
  type Agreement,
  invalidFormErrors,
  isNiaMismatch,
  isSessionExpired,
  isTimeNotCovered,
  newIdempotencyKey,
  type SubmitAnswer,
  submitBody,
  submitRequest,
  validateRequest,
} from '../submit';
import type { FormEvent, FormEventKind } from './ErrorSummary';
import type { FormStatusStore } from './status';

/**
 * Finish -> validate -> confirmation dialog -> submit -> success (spec section 4). A failed
 * finish or send becomes one event for the top of the form (ErrorSummary); a second click while
 * validating or sending is ignored; the same body keeps its idempotency key, so a retry after a
 * lost answer cannot store the request twice.
 */
export function useSubmitFlow({
  form,
  status,
  duplicate,
  lang,
  botCheck,
  match,
  onSubmitted,
  onSessionExpired,
}: {
  form: UseFormReturn<FormValues>;
  status: FormStatusStore;
  duplicate: boolean;
  lang: 'cs' | 'en';
  botCheck: BotCheckSettings;
  /** The search answer's `match`: the proof the server links the register person by. */
  match?: string;
  onSubmitted?: () => void;
  onSessionExpired?: () => void;
}) {
  const [dialog, setDialog] = useState<ConfirmVariant | null>(null);
  // Which rule makes the request probably refused (validate's `reason`, issue 28).
  const [reason, setReason] = useState<RefusalReason | undefined>(undefined);
  const [validating, setValidating] = useState(false);
  const [processing, setProcessing] = useState(false);
  const [done, setDone] = useState<SubmitAnswer | null>(null);
  const [event, setEvent] = useState<FormEvent | null>(null);
  const busy = useRef(false);
  const idempotency = useRef<{ key: string; body: string } | null>(null);

  const announce = (kind: FormEventKind) => setEvent((e) => ({ kind, n: (e?.n ?? 0) + 1 }));

  /** The finish button (or Enter in a box): `valid` = the rules and the month coverage pass. */
  const finish = (valid: boolean) => {
    status.setAttempted();
    if (!valid) {
      announce('invalid');
      return;
    }
    if (busy.current) return;
    busy.current = true;
    setValidating(true);
    // A failed validate call counts as fine: the dialog opens anyway. An earlier message stays
    // until then, so focus (on its "send again" button) does not drop to the page meanwhile.
    void validateRequest(form.getValues(), duplicate, match).then((answer) => {
      busy.current = false;
      setValidating(false);
      setEvent(null);
      setReason(answer.reason);
      setDialog(confirmVariant(answer, duplicate));
    });
  };

  // The dialog puts focus back on the finish button itself (components/Dialog.tsx).
  const closeDialog = () => setDialog(null);

  /** Send, with what the applicant agreed to in the dialog (the texts' version and the boxes). */
  const submit = async (agreement: Agreement) => {
    if (busy.current) return;
    busy.current = true;
    setProcessing(true);
    const v = form.getValues();
    const body = submitBody(
      v,
      lang,
      duplicate,
      { email: v.send_notifications_email, phone: v.send_notifications_phone },
      agreement,
      match,
    );
    const json = JSON.stringify(body);
    if (idempotency.current?.body !== json) idempotency.current = { key: newIdempotencyKey(), body: json };
    try {
      const answer = await submitRequest(body, idempotency.current.key, botCheck);
      clearDraft();
      setDialog(null);
      setDone(answer);
      onSubmitted?.();
      window.scrollTo({ top: 0 });
    } catch (error) {
      // Nothing was stored: the dialog closes and the top of the form says why.
      setDialog(null);
      const fieldErrors = invalidFormErrors(error);
      if (fieldErrors) {
        // The server's rules rejected fields: as a failed finish (messages, summary with focus).
        status.setServerErrors(fieldErrors);
        announce('invalid');
      } else if (isNiaMismatch(error)) announce('niaMismatch');
      else if (isTimeNotCovered(error)) announce('timeNotCovered');
      else if (isSessionExpired(error) && onSessionExpired) onSessionExpired();
      else if (isBotCheckRefusal(error)) announce('botCheck');
      else announce('submitError');
    } finally {
      busy.current = false;
      setProcessing(false);
    }
  };

  return { dialog, reason, validating, processing, done, event, finish, closeDialog, submit };
}

import type { FormValues, PrefillField } from '@ros/domain';
import { useEffect } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { type Draft, saveDraft } from '../draft';

/**
 * The draft follows every change (values, and the little UI state it keeps); it lives in this
 * tab only (sessionStorage). Stops once the request is sent.
 */
export function useDraft(
  form: UseFormReturn<FormValues>,
  meta: {
    duplicate: boolean;
    readOnly: PrefillField[];
    noPrefill: boolean;
    dataMailboxDelivery: boolean;
    czechCitizen: boolean;
    birthNameTouched: boolean;
    modalShown: boolean;
    /** The search answer's match token (sent with validate and submit). */
    match?: string;
    done: boolean;
  },
) {
  const {
    duplicate,
    readOnly,
    noPrefill,
    dataMailboxDelivery,
    czechCitizen,
    birthNameTouched,
    modalShown,
    match,
    done,
  } = meta;
  useEffect(() => {
    if (done) return;
    const save = () => {
      const draft: Draft = {
        version: 1,
        duplicate,
        values: form.getValues(),
        readOnly,
        noPrefill,
        dataMailboxDelivery,
        czechCitizen,
        birthNameTouched,
        modalShown,
        ...(match ? { match } : {}),
      };
      saveDraft(draft);
    };
    save();
    // A subscription, not a render: typing does not re-render the form to save it.
    const sub = form.watch(() => save());
    return () => sub.unsubscribe();
  }, [
    form,
    duplicate,
    readOnly,
    noPrefill,
    dataMailboxDelivery,
    czechCitizen,
    birthNameTouched,
    modalShown,
    match,
    done,
  ]);
}

import type { FormValues } from '@ros/domain';
import { useEffect } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { draftOf, type FormStart, saveDraft } from '../draft';

/**
 * The draft follows every change: the form's starting record as it is now (`now`: the little UI
 * state it keeps) with the form's values; it lives in this tab only (sessionStorage). Stops once
 * the request is sent (`done`).
 */
export function useDraft(form: UseFormReturn<FormValues>, now: FormStart, duplicate: boolean, done: boolean) {
  useEffect(() => {
    if (done) return;
    const save = () => saveDraft(draftOf({ ...now, values: form.getValues() }, duplicate));
    save();
    // A subscription, not a render: typing does not re-render the form to save it.
    const sub = form.watch(() => save());
    return () => sub.unsubscribe();
  }, [form, now, duplicate, done]);
}

import { zodResolver } from '@hookform/resolvers/zod';
import { once, searchByBirthNumberSchema, searchByDocumentSchema } from '@ros/domain';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { loadSearchDraft, saveSearchDraft } from '../draft';
import type { RetryFrom } from '../nia/niaStart';
import { useValidationText } from '../validationText';

/** The search's boxes: names and identity document. */
export interface SearchValues {
  first_name: string;
  last_name: string;
  type: string;
  number: string;
}

/** Every box of the step, the retry's birth number included. */
export type SearchField = keyof SearchValues | 'birth_number';

/** The search's schema without the birth number (made when the search step first shows). */
const documentSchema = once(() =>
  searchByDocumentSchema().pick({
    first_name: true,
    last_name: true,
    type: true,
    number: true,
  }),
);

/** The locked names and document of the retry, as the search sent them. */
export const documentProof = (v: SearchValues): SearchValues => ({
  first_name: v.first_name,
  last_name: v.last_name,
  type: v.type,
  number: v.number,
});

/**
 * The two forms of the search step (react-hook-form, the domain's schemas): the search and the
 * retry's birth number; the boxes kept in this tab; which messages show.
 */
export function useSearchForms({
  duplicate,
  retryFrom,
  typesLoaded,
}: {
  duplicate: boolean;
  retryFrom?: RetryFrom;
  /** The document types' options are in the page (the type can be chosen). */
  typesLoaded: boolean;
}) {
  const text = useValidationText();
  // What the person typed before a reload of the tab (issue 28): the boxes come back.
  const [restored] = useState(() => (retryFrom ? null : loadSearchDraft(duplicate)));
  const form = useForm<SearchValues>({
    mode: 'onChange',
    defaultValues: retryFrom
      ? documentProof(retryFrom)
      : restored
        ? documentProof(restored)
        : { first_name: '', last_name: '', type: '', number: '' },
    resolver: zodResolver(documentSchema()) as never,
  });
  const retryForm = useForm<{ birth_number: string }>({
    mode: 'onChange',
    defaultValues: { birth_number: '' },
    resolver: zodResolver(searchByBirthNumberSchema()) as never,
  });

  // The type's option exists only once the list has loaded.
  useEffect(() => {
    const type = retryFrom?.type ?? restored?.type;
    if (type && typesLoaded) form.setValue('type', type, { shouldValidate: true });
  }, [retryFrom, restored, typesLoaded, form]);

  // Every change is kept in this tab (sessionStorage) until the search leads on or the form is left.
  useEffect(() => {
    if (retryFrom) return;
    const sub = form.watch((v) =>
      saveSearchDraft({
        duplicate,
        first_name: v.first_name ?? '',
        last_name: v.last_name ?? '',
        type: v.type ?? '',
        number: v.number ?? '',
      }),
    );
    return () => sub.unsubscribe();
  }, [form, retryFrom, duplicate]);

  // "Changed by the user" as the spec means it: once edited, even back to empty.
  const [changed, setChanged] = useState<ReadonlySet<SearchField>>(new Set());
  const markChanged = (name: SearchField) => () =>
    setChanged((prev) => (prev.has(name) ? prev : new Set(prev).add(name)));
  // Searching with a gap: every message shows (the first invalid box takes focus).
  const showAll = () => setChanged(new Set(['first_name', 'last_name', 'type', 'number', 'birth_number']));
  /** A box's message: its first error once the user changed it (or searched), else empty. */
  const shownError = (name: SearchField, max?: number) => {
    const state =
      name === 'birth_number'
        ? retryForm.getFieldState(name, retryForm.formState)
        : form.getFieldState(name, form.formState);
    return state.invalid && changed.has(name) ? text(state.error, max) : '';
  };

  return { form, retryForm, markChanged, showAll, shownError };
}

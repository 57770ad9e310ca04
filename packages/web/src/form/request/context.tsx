import {
  type Catalogue,
  type CoverageResult,
  coverageOfValues,
  coverageOk,
  type FormContext,
  type FormFieldName,
  type FormValues,
} from '@ros/domain';
import { createContext, useContext, useSyncExternalStore } from 'react';
import { useWatch } from 'react-hook-form';
import type { ComboOption } from '../../components/Combobox';
import type { ReferenceLists } from '../reference';
import type { FormStatus, FormStatusStore } from './status';

/**
 * What every part of step 2 needs besides the values (which it reads from react-hook-form's
 * context): the mode, the read-only set, the lists, the rules' status and the little UI state
 * the draft keeps. Stable for the life of the form, so reading it re-renders nothing.
 */
export interface RequestFormShared {
  duplicate: boolean;
  /** Signed in through NIA with a complete identity. */
  nia: boolean;
  ctx: FormContext;
  /** The field catalogue the form is drawn from and checked by: FIELDS (a test gives one with a field more). */
  catalogue: Catalogue;
  readOnly: ReadonlySet<FormFieldName>;
  lists: ReferenceLists;
  lang: 'cs' | 'en';
  status: FormStatusStore;
  countryOptions: readonly ComboOption[];
  /** Moves focus to this element id after the next render (a new row, back to a button). */
  focusLater: (id: string) => void;
  /** The birth name was edited (or prefilled): the last name no longer copies into it. */
  birthNameTouched: boolean;
  setBirthNameTouched: (v: boolean) => void;
  /** The stays-abroad explanation was shown once. */
  modalShown: boolean;
  openAbroadModal: () => void;
}

const Shared = createContext<RequestFormShared | null>(null);
export const RequestFormProvider = Shared.Provider;

export function useRequestForm(): RequestFormShared {
  const v = useContext(Shared);
  if (!v) throw new Error('useRequestForm must be used inside <RequestForm>');
  return v;
}

/**
 * A slice of the rules' status; the caller re-renders only when the slice changes, so `select`
 * must return a primitive or a reference that stays the same while nothing changed.
 */
export function useFormStatus<T>(select: (s: FormStatus) => T): T {
  const { status } = useRequestForm();
  return useStatusOf(status, select);
}

/** useFormStatus for a store at hand (the form itself, outside its own provider). */
export function useStatusOf<T>(status: FormStatusStore, select: (s: FormStatus) => T): T {
  return useSyncExternalStore(status.subscribe, () => select(status.state));
}

/** The id of a control by its value path ('past_activities.0.from' -> 'past_activities-0-from'). */
export const fieldId = (path: string) => path.replace(/\./g, '-');

/** The values the month coverage is of (the employer's start, the past activities), watched. */
function useCoverageValues(): Pick<FormValues, 'employer_current_from' | 'past_activities'> {
  const [employer_current_from, past_activities] = useWatch<
    FormValues,
    ['employer_current_from', 'past_activities']
  >({ name: ['employer_current_from', 'past_activities'] });
  return { employer_current_from, past_activities };
}

/** Month coverage of the last 60 months from the employer start and the activities. */
export function useCoverage(): CoverageResult {
  return coverageOfValues(useCoverageValues());
}

/** The request is covered well enough, or the coverage does not apply (a duplicate: coverageOk). */
export function useCoverageOk(): boolean {
  const { ctx } = useRequestForm();
  return coverageOk(useCoverageValues(), ctx);
}

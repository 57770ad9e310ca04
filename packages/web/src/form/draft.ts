import type { FormValues, PrefillField } from '@ros/domain';

/** What survives a reload of the same tab (sessionStorage): values, context and UI state. */
export interface Draft {
  version: 1;
  duplicate: boolean;
  values: FormValues;
  readOnly: PrefillField[];
  noPrefill: boolean;
  dataMailboxDelivery: boolean;
  /** The register knows the person as a Czech citizen (absent in drafts saved before it was kept). */
  czechCitizen?: boolean;
  /** Only in drafts saved before dial_code became a form value (decision 0003). */
  dialCode?: string;
  birthNameTouched: boolean;
  modalShown: boolean;
  /** The search answer's match token (sent with validate and submit). */
  match?: string;
}

export const DRAFT_KEY = 'ros-form-draft';

export function loadDraft(duplicate: boolean): Draft | null {
  try {
    const raw = window.sessionStorage.getItem(DRAFT_KEY);
    if (!raw) return null;
    const d = JSON.parse(raw) as Draft;
    if (d?.version !== 1 || d.duplicate !== duplicate || typeof d.values !== 'object') return null;
    return d;
  } catch {
    return null;
  }
}

export function saveDraft(d: Draft): void {
  try {
    window.sessionStorage.setItem(DRAFT_KEY, JSON.stringify(d));
  } catch {
    // Storage full or blocked: the form still works, only without the draft.
  }
}

export function clearDraft(): void {
  try {
    window.sessionStorage.removeItem(DRAFT_KEY);
  } catch {
    // ignore
  }
}

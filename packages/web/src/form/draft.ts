import {
  defaultFormContext,
  defaultFormValues,
  type FormContext,
  type FormFieldName,
  type FormValues,
  type PrefillField,
} from '@ros/domain';

/**
 * Step 2's starting record (one type for every start: a search match, a sign-in, a manual start,
 * a draft after a reload): the values, the facts of the form's context, and the little UI state
 * a draft keeps. A draft is this record now, with its mode (Draft).
 */
export interface FormStart {
  values: FormValues;
  readOnly: PrefillField[];
  noPrefill: boolean;
  dataMailboxDelivery: boolean;
  /** The register knows the person as a Czech citizen (registerFormContext): the birth number is required. */
  czechCitizen?: boolean;
  birthNameTouched?: boolean;
  modalShown?: boolean;
  /** The search answer's `match`: the proof the server links the register person by (validate, submit). */
  match?: string;
  /**
   * The person has typed something into this draft (issue 28): a reload restores the values as
   * the form's start, so this keeps the "leave?" question armed after it.
   */
  typed?: boolean;
}

/** What survives a reload of the same tab (sessionStorage): the starting record now, and its mode. */
export interface Draft extends FormStart {
  version: 1;
  duplicate: boolean;
  /** Only in drafts saved before dial_code became a form value (decision 0003). */
  dialCode?: string;
}

/** The form context of a start (the rules' context for the life of the form). */
export function startContext(
  start: FormStart,
  duplicate: boolean,
  dialCodes?: ReadonlySet<string>,
): FormContext {
  return defaultFormContext({
    duplicate,
    noPrefill: start.noPrefill,
    readOnly: new Set<FormFieldName>(start.readOnly),
    dataMailboxDelivery: start.dataMailboxDelivery,
    czechCitizen: start.czechCitizen ?? false,
    ...(dialCodes ? { dialCodes } : {}),
  });
}

/** The draft of a form: its starting record as it is now (values, UI state), in its mode. */
export function draftOf(start: FormStart, duplicate: boolean): Draft {
  const { match, typed, ...rest } = start;
  return {
    version: 1,
    duplicate,
    ...rest,
    czechCitizen: start.czechCitizen ?? false,
    birthNameTouched: start.birthNameTouched ?? false,
    modalShown: start.modalShown ?? false,
    ...(match ? { match } : {}),
    ...(typed ? { typed } : {}),
  };
}

/** The starting record a draft restores. */
export function startOfDraft(d: Draft): FormStart {
  return {
    // A draft saved before dial_code was a form value kept the choice beside the values.
    values: { ...defaultFormValues(), ...(d.dialCode ? { dial_code: d.dialCode } : {}), ...d.values },
    readOnly: d.readOnly,
    noPrefill: d.noPrefill,
    dataMailboxDelivery: d.dataMailboxDelivery,
    czechCitizen: d.czechCitizen ?? false,
    birthNameTouched: d.birthNameTouched,
    modalShown: d.modalShown,
    ...(d.match ? { match: d.match } : {}),
    ...(d.typed ? { typed: true } : {}),
  };
}

export const DRAFT_KEY = 'ros-form-draft';

/** This tab's draft of the mode, as the starting record it restores; null when there is none. */
export function loadDraftStart(duplicate: boolean): FormStart | null {
  const d = loadDraft(duplicate);
  return d ? startOfDraft(d) : null;
}

/**
 * What this tab keeps under `key`, when it is there, parses and `fits`; null otherwise (storage
 * blocked or the value not ours any more).
 */
function readTab<T>(key: string, fits: (value: T) => boolean): T | null {
  try {
    const raw = window.sessionStorage.getItem(key);
    if (!raw) return null;
    const value = JSON.parse(raw) as T;
    return value && fits(value) ? value : null;
  } catch {
    return null;
  }
}

/** Keeps `value` in this tab; storage full or blocked: the form still works, only without it. */
function writeTab(key: string, value: unknown): void {
  try {
    window.sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // nothing kept
  }
}

export function loadDraft(duplicate: boolean): Draft | null {
  return readTab<Draft>(
    DRAFT_KEY,
    (d) => d.version === 1 && d.duplicate === duplicate && typeof d.values === 'object',
  );
}

export function saveDraft(d: Draft): void {
  writeTab(DRAFT_KEY, d);
}

/** The search step's boxes, kept in this tab so that a reload keeps them (issue 28). */
export interface SearchDraft {
  duplicate: boolean;
  first_name: string;
  last_name: string;
  type: string;
  number: string;
}

export const SEARCH_DRAFT_KEY = 'ros-search-draft';

export function loadSearchDraft(duplicate: boolean): SearchDraft | null {
  return readTab<SearchDraft>(
    SEARCH_DRAFT_KEY,
    (d) =>
      d.duplicate === duplicate &&
      (['first_name', 'last_name', 'type', 'number'] as const).every((k) => typeof d[k] === 'string'),
  );
}

export function saveSearchDraft(d: SearchDraft): void {
  writeTab(SEARCH_DRAFT_KEY, d);
}

/** Everything this tab holds of the form: the request's draft and the search step's boxes. */
export function clearDraft(): void {
  try {
    window.sessionStorage.removeItem(DRAFT_KEY);
    window.sessionStorage.removeItem(SEARCH_DRAFT_KEY);
  } catch {
    // ignore
  }
}

// The conditional rules of spec section 4 ("field reactions") as functions of the values, which
// the field catalogue (fields.ts) builds its entries from: what enables, requires or shows a field.
// The browser and the server both use them through the catalogue (isFieldEnabled, isFieldRequired).
// Each takes the values it reads, not the form's FormValues: that type is derived from the
// catalogue's entries, which are made of these functions (fields.ts).

import { birthDateError, type Today } from './dates.js';
import {
  ACTIVITY_TYPE_OTHER,
  CZECH_REPUBLIC,
  DELIVERY_DATA_MAILBOX,
  DUPLICATE_DAMAGED,
  DUPLICATE_STOLEN,
  STATELESS,
} from './formCodes.js';

/** The second citizenship is enabled unless the main one is ## (stateless / unspecified). */
export function isSecondCitizenshipEnabled(citizen_of_1: string): boolean {
  return citizen_of_1 !== STATELESS;
}

/**
 * The birth number is required (and format-checked) when either citizenship is CZ, or
 * the context knows the person is a Czech citizen. citizen_of_2 counts only while it is
 * enabled.
 */
export function isBirthNumberRequired(
  values: { readonly citizen_of_1: string; readonly citizen_of_2: string },
  ctx?: { readonly czechCitizen: boolean },
): boolean {
  if (ctx?.czechCitizen) return true;
  if (values.citizen_of_1 === CZECH_REPUBLIC) return true;
  return isSecondCitizenshipEnabled(values.citizen_of_1) && values.citizen_of_2 === CZECH_REPUBLIC;
}

/** birth_district is enabled (and required) only for a birth in the Czech Republic. */
export function isDistrictEnabled(birth_state: string): boolean {
  return birth_state === CZECH_REPUBLIC;
}

/** For a birth outside the Czech Republic the municipality is free text, not a list choice. */
export function isMunicipalityFreeText(birth_state: string): boolean {
  return !isDistrictEnabled(birth_state);
}

/**
 * What changing the birth country clears: municipality and district, whenever the
 * country moves into or out of CZ (the municipality switches between a list choice and
 * free text, and the district between enabled and disabled). Empty when nothing changes.
 */
export function birthStateChangePatch(
  previous: string,
  next: string,
): { birth_municipality?: string; birth_district?: string } {
  if (previous === next) return {};
  if (isDistrictEnabled(previous) || isDistrictEnabled(next))
    return { birth_municipality: '', birth_district: '' };
  return {};
}

/**
 * The dial code belongs to a telephone: it is required and checked only when a telephone
 * is given (decision 0003); without one it is ignored and stored empty.
 */
export function isDialCodeEnabled(telephone: string): boolean {
  return telephone.trim() !== '';
}

/** The birth number is enabled only once a valid birth date is entered. */
export function isBirthNumberEnabled(birth_date: string, today?: Today): boolean {
  return birthDateError(birth_date, today) === null;
}

/** data_mailbox is shown when it is read-only (known from prefill) or when there is no prefill. */
export function isDataMailboxShown(ctx: {
  readonly readOnly: ReadonlySet<string>;
  readonly noPrefill: boolean;
}): boolean {
  return ctx.readOnly.has('data_mailbox') || ctx.noPrefill;
}

/**
 * data_mailbox is required only for delivery by data mailbox (DATOVKOU), with or without a prefill
 * (docs/requirements.md, product decisions, "Data mailbox": most people and every foreigner have
 * none).
 */
export function isDataMailboxRequired(values: { readonly delivery_type: string }): boolean {
  return values.delivery_type === DELIVERY_DATA_MAILBOX;
}

/** The delivery types to offer: DATOVKOU only when a data mailbox is known. */
export function availableDeliveryTypes<T extends { code: string }>(
  list: readonly T[],
  hasDataMailbox: boolean,
): T[] {
  return hasDataMailbox ? [...list] : list.filter((t) => t.code !== DELIVERY_DATA_MAILBOX);
}

/** field2 (function / field of study) is disabled for activity type 3 (Other). */
export function isField2Enabled(type: string): boolean {
  return type !== ACTIVITY_TYPE_OTHER;
}

/** Duplicate types that exclude each other: picking one removes the other. */
export const EXCLUSIVE_DUPLICATE_TYPES: ReadonlyArray<readonly [string, string]> = [
  [DUPLICATE_DAMAGED, DUPLICATE_STOLEN],
];

function exclusivePartners(code: string): string[] {
  return EXCLUSIVE_DUPLICATE_TYPES.flatMap(([a, b]) => (a === code ? [b] : b === code ? [a] : []));
}

/**
 * Toggles a duplicate type in the selection: removes it when selected; otherwise adds
 * it and removes the type it excludes (POSKOZENI <-> ODCIZENI).
 */
export function toggleDuplicateType(current: readonly string[], code: string): string[] {
  if (current.includes(code)) return current.filter((c) => c !== code);
  const partners = exclusivePartners(code);
  return [...current.filter((c) => !partners.includes(c)), code];
}

/** True when the selection holds two types that exclude each other. */
export function hasConflictingDuplicateTypes(selection: readonly string[]): boolean {
  return EXCLUSIVE_DUPLICATE_TYPES.some(([a, b]) => selection.includes(a) && selection.includes(b));
}

// The limits of the form's values: the default maximum length (a field's own, spec section 5, is
// on its catalogue entry, fields.ts), the month coverage and date bounds of section 9, and the
// row caps and id bounds the server keeps. The codes the rules
// compare with are in formCodes.ts, the interface's delays in uiTiming.ts.

/**
 * Limit for every other text value (codes, identifiers, prefill-only fields) that the
 * spec gives no length for. Not a spec rule: it keeps the server from storing
 * arbitrarily long strings; no real value comes near it.
 */
export const DEFAULT_MAX_LENGTH = 240;

/** Month coverage window (months) and the uncovered months it tolerates. */
export const COVERAGE_WINDOW_MONTHS = 60;
export const MAX_UNCOVERED_MONTHS = 1;

/** How far ahead (months) the current employer's start may lie. */
export const EMPLOYER_START_MAX_MONTHS_AHEAD = 6;

/** Telephone digits after removing spaces. */
export const TELEPHONE_DIGITS = 9;

/** Length of a data mailbox (ISDS) identifier. */
export const DATA_MAILBOX_LENGTH = 7;

/** Rows of stays abroad. */
export const MAX_ABROAD_STAYS = 6;

/**
 * Row and list caps the spec does not give (server safety, far above real use):
 * past activities, other citizenships, duplicate types.
 */
export const MAX_PAST_ACTIVITIES = 100;
export const MAX_OTHER_CITIZENSHIPS = 50;
export const MAX_DUPLICATE_TYPES = 20;

/**
 * Ids the register stores (issue 21: bounded before they reach the database, whose column would
 * overflow): a register person's (a 32-bit integer column) and a certificate's (a 64-bit one,
 * up to what a JavaScript number holds exactly).
 */
export const MAX_PERSON_ID = 2_000_000_000;
export const MAX_RECORD_ID = Number.MAX_SAFE_INTEGER;

/** Birth date range: the last 100 years up to today. */
export const BIRTH_DATE_RANGE_YEARS = 100;

/** Earliest year a month/year field accepts. */
export const MIN_MONTH_YEAR = 1900;

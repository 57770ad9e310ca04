// Maximum lengths of spec section 5 and business constants of spec section 9.

/** Maximum lengths (characters) by the spec's field names. */
export const MAX_LENGTHS = {
  first_name: 50,
  last_name: 50,
  birth_name: 50,
  birth_municipality: 240,
  birth_district: 240,
  home_street: 80,
  contact_street: 80,
  home_house_num: 10,
  home_org_num: 10,
  contact_house_num: 10,
  contact_org_num: 10,
  home_city: 80,
  contact_city: 80,
  home_zip: 11,
  contact_zip: 11,
  employer_current_name: 240,
  employer_current_description: 240,
  contact_company: 240,
  telephone: 80,
  email: 240,
  document_number: 240,
  field1: 240,
  field2: 240,
  /** abroad_stay[].reason */
  reason: 3993,
} as const;

export type MaxLengthField = keyof typeof MAX_LENGTHS;

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

/** The telephone's country calling code a new form starts with (first in GET /dial-codes). */
export const DEFAULT_DIAL_CODE = '+420';

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

/** Alerts close themselves after this long (ms) unless told otherwise; 0 keeps them (spec section 9). */
export const ALERT_TIMEOUT_MS = 5000;

/** Birth date range: the last 100 years up to today. */
export const BIRTH_DATE_RANGE_YEARS = 100;

/** Earliest year a month/year field accepts. */
export const MIN_MONTH_YEAR = 1900;

/** Header title delay after the view initialises (ms). */
export const HEADER_TITLE_DELAY_MS = 200;

/** Default employer verification type. */
export const DEFAULT_EMPLOYER_VERIFICATION_TYPE = 'OSVEDCENI1';

/** Country code of the Czech Republic and the code meaning stateless / unspecified. */
export const CZECH_REPUBLIC = 'CZ';
export const STATELESS = '##';

/** Past-activity type 3 (Other): field2 is not used. */
export const ACTIVITY_TYPE_OTHER = '3';

/** Delivery type that needs a data mailbox. */
export const DELIVERY_DATA_MAILBOX = 'DATOVKOU';

/** Duplicate types that exclude each other. */
export const DUPLICATE_DAMAGED = 'POSKOZENI';
export const DUPLICATE_STOLEN = 'ODCIZENI';

// The codes of the register's lists that the form's rules name (spec sections 5 and 9): the
// defaults a new form starts with and the values a rule compares with.

/** The telephone's country calling code a new form starts with (first in GET /dial-codes). */
export const DEFAULT_DIAL_CODE = '+420';

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

import { addDays } from './dates.js';

/**
 * Why a new request would probably be refused (issue 28): the confirmation dialog names the one
 * reason that applies, with its date. Validate (the server) decides it with `newRequestRefusal`;
 * the dialog only words it.
 * - `renewal-window`: the certificate in force is valid until `validUntil`, more than the renewal
 *   window beyond today; a new request is accepted from `from` (that many days before it ends).
 * - `repeat-request`: a new request for the person was filed on `filedOn`, within the repeat
 *   window; the window ends on `until` (the first day a request would not count as a repeat).
 * Dates are 'YYYY-MM-DD' (the register's calendar, Europe/Prague).
 */
export type RefusalReason =
  | { rule: 'renewal-window'; validUntil: string; from: string }
  | { rule: 'repeat-request'; filedOn: string; until: string };

export interface RefusalFacts {
  /** Today in the register's calendar. */
  today: string;
  /** `platnost_do` of the person's certificate in force; null without one. */
  validUntil: string | null;
  /** The day the person's last new request within the repeat window was filed; null without one. */
  lastRequestOn: string | null;
  renewalWindowDays: number;
  repeatRequestDays: number;
}

/**
 * The reason a new request would probably be refused, or null when none applies. A certificate
 * valid beyond the renewal window comes first: a repeat request is refused for it anyway.
 */
export function newRequestRefusal(f: RefusalFacts): RefusalReason | null {
  if (f.validUntil !== null && f.validUntil > addDays(f.today, f.renewalWindowDays)) {
    return {
      rule: 'renewal-window',
      validUntil: f.validUntil,
      from: addDays(f.validUntil, -f.renewalWindowDays),
    };
  }
  if (f.lastRequestOn !== null) {
    return {
      rule: 'repeat-request',
      filedOn: f.lastRequestOn,
      until: addDays(f.lastRequestOn, f.repeatRequestDays),
    };
  }
  return null;
}

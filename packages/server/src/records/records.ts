import {
  calendarDateOf,
  formatIsoDate,
  shortValidityName,
  toValidityDisplayDate,
  type ValidityAnswer,
} from '@ros/domain';
import type { Selectable } from 'kysely';
import type { RecordTable } from '../db/schema.js';

/**
 * Certificates ("doklady o spolehlivosti") as the register holds them: table `records`
 * (db/schema.ts), without the demo marker. Dates are stored as 'YYYY-MM-DD'.
 */
export type CertificateRecord = Omit<Selectable<RecordTable>, 'stav' | 'demo'> & {
  /** The register's state: 'Ano' = in force, 'Ne' = not in force (e.g. revoked by the authority). */
  stav: 'Ano' | 'Ne';
};

/** The columns the validity check reads. */
export type ValidityRow = Pick<
  Selectable<RecordTable>,
  'stav' | 'platnost_do' | 'a1a3_valid_until' | 'a2_valid_until' | 'first_name' | 'last_name' | 'revoked_at'
>;

/** Today's date in Prague (the register's time zone, as every rule in @ros/domain) as 'YYYY-MM-DD'. */
export function registerToday(now: Date = new Date()): string {
  return formatIsoDate(calendarDateOf(now));
}

/**
 * Whether a certificate is in force on `today` ('YYYY-MM-DD'): the register says 'Ano', it was not
 * revoked, and `platnost_do` has not passed (the certificate is valid through that whole day).
 * ISO dates compare correctly as strings.
 */
export function isInForce(
  row: Pick<ValidityRow, 'stav' | 'platnost_do' | 'revoked_at'>,
  today: string,
): boolean {
  return row.stav === 'Ano' && row.revoked_at === null && row.platnost_do >= today;
}

/**
 * The answer of GET /api/ros/{id}/validity for a stored certificate. Expired and revoked
 * certificates answer stav 'Ne'. Categories are only sent for a certificate in force: a verifier
 * needs them only then, and the check reveals as little as it can.
 */
export function toValidityAnswer(row: ValidityRow, today: string): ValidityAnswer {
  const inForce = isInForce(row, today);
  const answer: ValidityAnswer = {
    data: {
      stav: inForce ? 'Ano' : 'Ne',
      platnost_do: toValidityDisplayDate(row.platnost_do) ?? row.platnost_do,
      jmeno: shortValidityName(row.first_name),
      prijmeni: shortValidityName(row.last_name),
    },
  };
  if (inForce) {
    const a1a3 = row.a1a3_valid_until ? toValidityDisplayDate(row.a1a3_valid_until) : null;
    const a2 = row.a2_valid_until ? toValidityDisplayDate(row.a2_valid_until) : null;
    if (a1a3) answer.a1a3 = { valid_until: a1a3 };
    if (a2) answer.a2 = { valid_until: a2 };
  }
  return answer;
}

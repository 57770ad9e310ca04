import { defaultFormValues, type FormValues } from '@ros/domain';
import type { Db } from '../db/database.js';
import { putPerson } from '../intake/register.js';
import { saveRecords } from '../records/repository.js';
import { bodyHash, type StoredRequest, storeRequest } from '../requests/repository.js';
import { AGREED } from './applicant.js';

let serial = 0;

/** A stored request (values as the submit route stores them) with the consents and contacts given. */
export async function storedRequest(
  db: Db,
  over: Partial<FormValues> = {},
  opts: { language?: 'cs' | 'en'; viaNia?: boolean; now?: Date; personKey?: string } = {},
): Promise<StoredRequest> {
  const n = serial++;
  const values: FormValues = {
    ...defaultFormValues(),
    first_name: 'Žofie',
    last_name: `Řeháková${n}`,
    email: 'zofie@example.cz',
    ...over,
  };
  const r = await storeRequest(
    db,
    {
      language: opts.language ?? 'cs',
      duplicate: false,
      viaNia: opts.viaNia ?? false,
      niaIdentifier: null,
      values,
      personKey: opts.personKey ?? `test:status-${n}-${Math.random()}`,
      idempotencyKey: null,
      bodyHash: bodyHash({ values, n, r: Math.random() }),
      legal: AGREED,
    },
    opts.now,
  );
  if (!('request' in r)) throw new Error('not stored');
  return r.request;
}

/**
 * A register person with a certificate in force (record and person `id`): its validity-check id
 * (`5001x2065` for the default date). A request stored with `personKey: person:<id>` is theirs.
 */
export async function registerCertificate(
  db: Db,
  id: number,
  person: { jmeno: string; prijmeni: string; rc?: string; dat_nar?: string } = {
    jmeno: 'Radek',
    prijmeni: 'Registrovaný',
  },
  platnostDo = '2030-12-23',
): Promise<string> {
  const put = await putPerson(db, id, person);
  if (!put.ok) throw new Error(`person ${id}: ${JSON.stringify(put.problems)}`);
  await saveRecords(db, [
    {
      id,
      person_id: id,
      stav: 'Ano',
      platnost_do: platnostDo,
      a1a3_valid_until: null,
      a2_valid_until: null,
      first_name: person.jmeno,
      last_name: person.prijmeni,
    },
  ]);
  const [y, m, d] = platnostDo.split('-').map(Number) as [number, number, number];
  return `${id}x${y + m + d}`;
}

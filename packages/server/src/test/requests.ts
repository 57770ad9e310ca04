import { defaultFormValues, type FormValues } from '@ros/domain';
import type { Db } from '../db/database.js';
import { bodyHash, type StoredRequest, storeRequest } from '../requests/repository.js';
import { AGREED } from './applicant.js';

let serial = 0;

/** A stored request (values as the submit route stores them) with the consents and contacts given. */
export async function storedRequest(
  db: Db,
  over: Partial<FormValues> = {},
  opts: { language?: 'cs' | 'en'; viaNia?: boolean; now?: Date } = {},
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
      personKey: `test:status-${n}-${Math.random()}`,
      idempotencyKey: null,
      bodyHash: bodyHash({ values, n, r: Math.random() }),
      legal: AGREED,
    },
    opts.now,
  );
  if (!('request' in r)) throw new Error('not stored');
  return r.request;
}

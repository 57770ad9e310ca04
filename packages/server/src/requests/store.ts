import type { Db } from '../db/database.js';
import { enqueueMail } from '../mail/table.js';
import { type NewRequest, type StoreResult, storeRequest } from './repository.js';

/**
 * Receiving a request: the request (requests/repository.ts) and, when it is to be confirmed by
 * e-mail (sent after NIA sign-in, with an address), its row in the mail queue (mail/table.ts),
 * in one transaction: a request is never stored without its mail, nor a mail without its
 * request. A retry answers the stored request and queues nothing again.
 */
export function storeRequestWithMail(
  db: Db,
  input: NewRequest & { mail: boolean },
  now: Date = new Date(),
): Promise<StoreResult> {
  const { mail, ...request } = input;
  return storeRequest(db, request, now, mail ? (trx, r) => enqueueMail(trx, r.id, now) : undefined);
}

import type { Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import { pendingQueueRow } from '../db/queueRow.js';
import type { Database } from '../db/schema.js';
import { spendMatch } from './matchToken.js';
import { type NewRequest, type StoredRequest, type StoreResult, storeRequest } from './repository.js';

/** Thrown inside the storing transaction (rolling it back) when another request spent the match token first. */
export class MatchSpentError extends Error {
  constructor() {
    super('The match token was spent by another request');
    this.name = 'MatchSpentError';
  }
}

/**
 * A request sent after NIA sign-in is the authority's from the moment it is sent (issue 38,
 * docs/status.md "NIA requests are received on arrival"): no signed paper to wait for. It is
 * stored `received`, `received_at` its `created_at` (the retention clock of a received request
 * starts then), with the history row `received` at the same time. No status notification: the
 * applicant has just been told by the success screen and the confirmation e-mail.
 */
export async function receiveOnArrival(trx: Transaction<Database>, request: StoredRequest): Promise<void> {
  await trx
    .updateTable('requests')
    .set({ status: 'received', received_at: request.createdAt })
    .where('id', '=', request.id)
    .execute();
  await trx
    .insertInto('request_status_history')
    .values({
      request_id: request.id,
      status: 'received',
      at: request.createdAt,
      note: null,
      certificate: null,
    })
    .execute();
}

/** The request's confirmation e-mail, queued (table request_mails); the mail queue sends it (mail/queue.ts). */
async function queueConfirmationMail(
  trx: Transaction<Database>,
  requestId: string,
  now: Date,
): Promise<void> {
  await trx
    .insertInto('request_mails')
    .values({ request_id: requestId, ...pendingQueueRow(now) })
    .execute();
}

/**
 * Receiving a request: the request (requests/repository.ts), when it is to be confirmed by
 * e-mail (sent after NIA sign-in, with an address) its row in the mail queue (request_mails),
 * and, when a search's match token linked it to a register person, the token spent on it
 * (requests/matchToken.ts), in one transaction: a request is never stored without its mail,
 * nor a mail without its request, and a token links one request only. A retry answers the
 * stored request and queues or spends nothing again. A request sent after NIA sign-in is
 * received on arrival, in the same transaction (receiveOnArrival). Throws MatchSpentError (nothing stored)
 * when `spendMatch` names a token another request spent meanwhile.
 */
export function storeRequestWithMail(
  db: Db,
  input: NewRequest & { mail: boolean; spendMatch?: string | null },
  now: Date = new Date(),
): Promise<StoreResult> {
  const { mail, spendMatch: matchHash, ...request } = input;
  return storeRequest(db, request, now, async (trx, r) => {
    if (matchHash && !(await spendMatch(trx, matchHash, r.id))) throw new MatchSpentError();
    if (mail) await queueConfirmationMail(trx, r.id, now);
    if (r.viaNia) await receiveOnArrival(trx, r);
  });
}

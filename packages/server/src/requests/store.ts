import type { Db } from '../db/database.js';
import { enqueueMail } from '../mail/table.js';
import { spendMatch } from './matchToken.js';
import { type NewRequest, type StoreResult, storeRequest } from './repository.js';

/** Thrown inside the storing transaction (rolling it back) when another request spent the match token first. */
export class MatchSpentError extends Error {
  constructor() {
    super('The match token was spent by another request');
    this.name = 'MatchSpentError';
  }
}

/**
 * Receiving a request: the request (requests/repository.ts), when it is to be confirmed by
 * e-mail (sent after NIA sign-in, with an address) its row in the mail queue (mail/table.ts),
 * and, when a search's match token linked it to a register person, the token spent on it
 * (requests/matchToken.ts), in one transaction: a request is never stored without its mail,
 * nor a mail without its request, and a token links one request only. A retry answers the
 * stored request and queues or spends nothing again. Throws MatchSpentError (nothing stored)
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
    if (mail) await enqueueMail(trx, r.id, now);
  });
}

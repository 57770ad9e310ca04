import type { QueueColumns } from './schema.js';

/**
 * A queued message's row as it starts, in either queue table (`request_mails`: the confirmation
 * e-mails, written by requests/store.ts; `status_notices`: notifications/notices.ts): due now, never
 * tried. The mail queue takes it from there (its life cycle: mail/claim.ts).
 */
export function pendingQueueRow(now: Date): QueueColumns {
  const at = now.toISOString();
  return {
    status: 'pending',
    attempts: 0,
    next_attempt_at: at,
    last_error: null,
    sent_at: null,
    created_at: at,
  };
}

/**
 * Retention (docs/intake.md "Retention"): a request's personal data is erased
 * ROS_RETENTION_RECEIVED_DAYS after it was marked received, or ROS_RETENTION_UNRECEIVED_DAYS
 * after it was submitted when it never was; the row keeps its reference, dates, channel,
 * language and kind. Also purged: expired NIA sessions, spent bot-check tokens past their
 * expiry, search match tokens, its confirmation e-mail and status notification rows, and outbox
 * files (mail bodies with the PDF, SMS) after ROS_OUTBOX_KEEP_DAYS or when their request is erased.
 *
 * The parts, each in retention/: `due.ts` (what is due when), `erase.ts` (erasing, and
 * overwriting the freed space on PostgreSQL), `outboxFiles.ts`, `purge.ts` (one run),
 * `scheduler.ts` (the lease that lets one instance of a group run it, on a timer).
 */
export { type DueRequest, dueRequests, overdueRequests } from './due.js';
export { type PurgeResult, purge, summary } from './purge.js';
export { PurgeScheduler, takeLease } from './scheduler.js';

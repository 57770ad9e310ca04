import { join } from 'node:path';
import type { Config } from './config/config.js';

/**
 * The names of the local outboxes' files, in one place: the mail transport (mail/transport.ts)
 * and the SMS gateway (notifications/sms.ts) write them, the retention purge (retention/outboxFiles.ts) finds
 * an erased request's files by them. If the two disagreed, the purge would silently stop
 * deleting mail that holds personal data (retention/retention.test.ts sends through the real
 * transport and purges).
 *
 *   <dataDir>/outbox/<reference>.eml                 the confirmation e-mail (with the PDF)
 *   <dataDir>/outbox/<reference>_status-<N>.eml      a status notification (notifications/notices.ts)
 *   <dataDir>/sms-outbox/<reference>_status-<N>.sms  a status notification by SMS
 *   .<name>.<pid>.tmp                                a message being written (then renamed)
 */

export type OutboxKind = 'eml' | 'sms';

/** The e-mail outbox folder. */
export function outboxDir(config: Pick<Config, 'dataDir'>): string {
  return join(config.dataDir, 'outbox');
}

/** The SMS outbox folder. */
export function smsOutboxDir(config: Pick<Config, 'dataDir'>): string {
  return join(config.dataDir, 'sms-outbox');
}

/** A name made file-safe: letters, digits, '_' and '-' only. */
const fileSafe = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, '_');

/** The name a status notification's message is sent under (N: its status history row). */
export const statusNoticeName = (reference: string, historyId: number | string) =>
  `${reference}_status-${historyId}`;

/** The file a message sent under `name` ends up in. */
export const outboxFileName = (name: string, kind: OutboxKind) => `${fileSafe(name)}.${kind}`;

/** The file a message is written to before it is renamed to its own name. */
export const outboxTmpName = (name: string) => `.${fileSafe(name)}.${process.pid}.tmp`;

/** Whether a file in an outbox is a message, a message being written, or neither. */
export function outboxFileKind(fileName: string): 'message' | 'tmp' | null {
  if (fileName.endsWith('.eml') || fileName.endsWith('.sms')) return 'message';
  if (fileName.endsWith('.tmp')) return 'tmp';
  return null;
}

/** The owner key of the messages of a request (what `outboxOwner` gives for each of its files). */
export const outboxOwnerKey = (reference: string) => fileSafe(reference);

/** The owner key of a message file: its request's reference, file-safe, of either outbox. */
export const outboxOwner = (messageFileName: string) =>
  messageFileName.replace(/(_status-\d+)?\.(eml|sms)$/, '');

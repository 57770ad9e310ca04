import { readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config/config.js';
import { outboxDir, outboxFileKind, outboxOwner, outboxOwnerKey, smsOutboxDir } from '../outbox.js';
import { DAY } from './due.js';

/**
 * The purge's part in the local outboxes (outbox.ts): messages (mail bodies with the PDF, SMS)
 * are deleted ROS_OUTBOX_KEEP_DAYS after they were written or when their request is erased, and
 * a message left half-written (`.tmp`) after a day.
 */

/**
 * Outbox files to delete: older than the setting, or of an erased request. The e-mail outbox
 * (`<reference>.eml`, and `<reference>_status-N.eml` for status notifications) and the SMS
 * outbox (`<reference>_status-N.sms`, notifications/sms.ts).
 */
export async function outboxFilesDue(
  config: Config,
  erasedReferences: string[],
  now: Date,
): Promise<string[]> {
  const erased = new Set(erasedReferences.map(outboxOwnerKey));
  const out: string[] = [];
  for (const dir of [outboxDir(config), smsOutboxDir(config)])
    out.push(...(await dueIn(dir, config, erased, now)));
  return out;
}

async function dueIn(dir: string, config: Config, erased: Set<string>, now: Date): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const keepAfter = now.getTime() - config.outboxKeepDays * DAY;
  const out: string[] = [];
  for (const name of names) {
    const kind = outboxFileKind(name);
    if (kind === null) continue;
    const file = join(dir, name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) continue;
    const erasedRef = kind === 'message' && erased.has(outboxOwner(name));
    const staleTmp = kind === 'tmp' && info.mtimeMs < now.getTime() - DAY;
    if (erasedRef || staleTmp || info.mtimeMs < keepAfter) out.push(file);
  }
  return out;
}

/** Deletes the files; how many it deleted (one gone meanwhile is not counted). */
export async function deleteFiles(files: string[]): Promise<number> {
  let removed = 0;
  for (const f of files) {
    if (
      await unlink(f).then(
        () => true,
        () => false,
      )
    )
      removed++;
  }
  return removed;
}

import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The data folder holds personal data (the SQLite file, the mail outbox's .eml files): folders
 * 0700 and files 0600, owner only, whatever the umask, also for folders and files an older
 * version made world-readable.
 */
export const PRIVATE_DIR = 0o700;
export const PRIVATE_FILE = 0o600;

/** Makes `dir` (and missing parents) and sets it to 0700. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  chmodSync(dir, PRIVATE_DIR);
}

/** Creates `file` empty when missing, and sets it to 0600. */
export function ensurePrivateFile(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', PRIVATE_FILE));
  chmodSync(file, PRIVATE_FILE);
}

/** Sets every file directly in `dir` to 0600 (files left by an older version). */
export function privatizeFiles(dir: string): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isFile()) chmodSync(join(dir, e.name), PRIVATE_FILE);
  }
}

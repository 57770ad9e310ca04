import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import type { Config } from '../config/config.js';
import { outboxDir, outboxFileName, outboxTmpName } from '../outbox.js';
import { ensurePrivateDir, PRIVATE_FILE, privatizeFiles } from '../privateFiles.js';

/**
 * Where mail goes: SMTP when ROS_SMTP_URL is set, else .eml files in <dataDir>/outbox (the
 * embedded default: nothing is lost and every message can be opened in a mail program).
 */
export interface MailTransport {
  /** `name`: the outbox file's name (the reference number; outbox.ts makes it file-safe). */
  send(message: Mail.Options, name: string): Promise<void>;
  close(): void;
  /** The outbox folder, or null when mail goes out by SMTP. */
  outbox: string | null;
}

export function createTransport(config: Config): MailTransport {
  if (config.smtpUrl) {
    const smtp = nodemailer.createTransport(config.smtpUrl);
    return {
      outbox: null,
      async send(message) {
        await smtp.sendMail(message);
      },
      close: () => smtp.close(),
    };
  }
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const dir = outboxDir(config);
  let prepared = false;
  return {
    outbox: dir,
    async send(message, name) {
      const info = await stream.sendMail(message);
      // Messages hold personal data (and the PDF): folder 0700, files 0600, also those written
      // by an older version (once per process).
      if (!prepared) {
        ensurePrivateDir(dir);
        privatizeFiles(dir);
        prepared = true;
      }
      const tmp = join(dir, outboxTmpName(name));
      // Written whole, then renamed: a reader never sees half a message.
      await writeFile(tmp, info.message as Buffer, { mode: PRIVATE_FILE });
      await rename(tmp, join(dir, outboxFileName(name, 'eml')));
    },
    close: () => stream.close(),
  };
}

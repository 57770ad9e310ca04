import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config/config.js';
import { outboxFileName, outboxTmpName, smsOutboxDir } from '../outbox.js';
import { ensurePrivateDir, PRIVATE_FILE, privatizeFiles } from '../privateFiles.js';

/**
 * Where SMS go (docs/status.md "SMS"): an HTTP gateway when ROS_SMS_URL is set, else text files
 * in <dataDir>/sms-outbox (the default, like the e-mail outbox: nothing is lost, and a test or
 * an operator can read every message).
 *
 * The HTTP gateway is generic: one JSON POST per message with `Authorization: Bearer
 * ROS_SMS_TOKEN`, body `{ "to": "+420603123456", "text": "…", "reference": "ROS-2026-000001" }`;
 * any 2xx answer means sent, anything else (or no answer within 10 s) is retried by the queue.
 * A gateway of another shape is put behind a small adapter that takes this body.
 */
export interface SmsMessage {
  /** E.164: '+' and digits. */
  to: string;
  text: string;
  /** The request's reference (the gateway may use it to match delivery reports). */
  reference: string;
}

export interface SmsGateway {
  /** `name`: the outbox file's name (outbox.ts makes it file-safe). */
  send(message: SmsMessage, name: string): Promise<void>;
  /** The outbox folder, or null when SMS go to the HTTP gateway. */
  outbox: string | null;
}

const TIMEOUT_MS = 10_000;

export function createSmsGateway(config: Pick<Config, 'dataDir' | 'smsUrl' | 'smsToken'>): SmsGateway {
  if (config.smsUrl) {
    const url = config.smsUrl;
    return {
      outbox: null,
      async send(message) {
        const res = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(config.smsToken ? { authorization: `Bearer ${config.smsToken}` } : {}),
          },
          body: JSON.stringify(message),
          signal: AbortSignal.timeout(TIMEOUT_MS),
          redirect: 'error',
        });
        // The body is not read into any log: it may echo the number.
        await res.body?.cancel();
        if (!res.ok)
          throw Object.assign(new Error('SMS gateway refused'), { code: `SMS_HTTP_${res.status}` });
      },
    };
  }
  const dir = smsOutboxDir(config);
  let prepared = false;
  return {
    outbox: dir,
    async send(message, name) {
      // A number and a reference: personal data, like the e-mail outbox (0700 / 0600).
      if (!prepared) {
        ensurePrivateDir(dir);
        privatizeFiles(dir);
        prepared = true;
      }
      const tmp = join(dir, outboxTmpName(name));
      await writeFile(tmp, `To: ${message.to}\nReference: ${message.reference}\n\n${message.text}\n`, {
        mode: PRIVATE_FILE,
      });
      await rename(tmp, join(dir, outboxFileName(name, 'sms')));
    },
  };
}

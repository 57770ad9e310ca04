import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ACCESS_CODE_ALPHABET, ACCESS_CODE_LENGTH, normalizeAccessCode, statusPagePath } from '@ros/domain';
import type { Config } from '../config/config.js';
import type { Db } from '../db/database.js';

/**
 * The access code of the status page (docs/status.md): HMAC-SHA256 of the request's secret id
 * under the status key, written in 12 characters of the typable alphabet (60 bits). Nothing of
 * it is stored: the PDF, the success screen and the e-mail make it again from the id, and the
 * status page checks a typed code by making it again and comparing in constant time. The id
 * stays after the retention purge, so the code keeps working; without the key a copy of the
 * database cannot make a code.
 *
 * The key is ROS_STATUS_KEY, or, when that is unset, a random key made once per database
 * (table shared_secrets), so that every instance makes the same codes. Changing the key changes
 * every code, also the printed ones.
 */

const SECRET_NAME = 'status-access-key';
const DOMAIN = 'ros-status-access-code\u0000';

export interface AccessCodes {
  /** The request's code (canonical: 12 characters, no dashes). */
  codeFor(requestId: string): Promise<string>;
  /**
   * Whether `typed` is the code of `requestId`. The same work whether or not there is a request
   * (null) and whether or not `typed` can be a code, so its time says nothing.
   */
  matches(requestId: string | null, typed: string): Promise<boolean>;
}

export function codeFromKey(key: Buffer, requestId: string): string {
  const mac = createHmac('sha256', key).update(DOMAIN).update(requestId).digest();
  let code = '';
  // 5 bits per character from the first 8 bytes (60 of their 64 bits).
  let bits = mac.readBigUInt64BE(0);
  for (let i = 0; i < ACCESS_CODE_LENGTH; i++) {
    code += ACCESS_CODE_ALPHABET[Number(bits & 31n)];
    bits >>= 5n;
  }
  return code;
}

/** The key: ROS_STATUS_KEY, or the database's own (made by the first instance that needs it). */
async function loadKey(db: Db, config: Pick<Config, 'statusKey'>): Promise<Buffer> {
  if (config.statusKey) return Buffer.from(config.statusKey, 'utf8');
  await db.kysely
    .insertInto('shared_secrets')
    .values({
      name: SECRET_NAME,
      value: randomBytes(32).toString('hex'),
      created_at: new Date().toISOString(),
    })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.kysely
    .selectFrom('shared_secrets')
    .select('value')
    .where('name', '=', SECRET_NAME)
    .executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'hex');
}

export function createAccessCodes(db: Db, config: Pick<Config, 'statusKey'>): AccessCodes {
  let key: Promise<Buffer> | undefined;
  const keyOnce = () => {
    key ??= loadKey(db, config).catch((err) => {
      key = undefined;
      throw err;
    });
    return key;
  };
  // Stands in for a request that does not exist: its code is made and compared all the same.
  const absent = randomBytes(12).toString('base64url');
  // Stands in for a typed text that cannot be a code: 12 characters no code has ('!').
  const never = '!'.repeat(ACCESS_CODE_LENGTH);
  return {
    async codeFor(requestId) {
      return codeFromKey(await keyOnce(), requestId);
    },
    async matches(requestId, typed) {
      const expected = Buffer.from(codeFromKey(await keyOnce(), requestId ?? absent));
      const given = Buffer.from(normalizeAccessCode(typed) ?? never);
      return timingSafeEqual(expected, given) && requestId !== null;
    },
  };
}

/** The access code and the status page's link of a request, as the PDF and the e-mails print them. */
export async function statusOf(
  codes: AccessCodes,
  publicUrl: string,
  request: { id: string; reference: string; language: 'cs' | 'en' },
): Promise<{ code: string; url: string }> {
  const code = await codes.codeFor(request.id);
  return { code, url: `${publicUrl}${statusPagePath(request.language, request.reference, code)}` };
}

import { createHash, createHmac, randomBytes } from 'node:crypto';
import { type ApiErrorCode, BOT_CHECK_CODES } from '@ros/domain';
import { type Challenge, createChallenge, randomInt, type Solution, verifySolution } from 'altcha-lib';
import { deriveKey as deriveShaKey } from 'altcha-lib/algorithms/sha';
import type { Config } from '../config/config.js';
import type { Db } from '../db/database.js';
import { ApiError } from '../errors.js';

/**
 * The bot check of the search and submit calls (docs/requirements.md, product decisions, "Bot
 * check"). The browser sends a token in the `Recaptcha` header; `verify` accepts it once or throws
 * a 403 ApiError with a BOT_CHECK_* code. Two providers:
 * - `altcha` (default): self-hosted proof of work. Our server signs a challenge (HMAC), the
 *   browser's widget solves it, the token is the base64 JSON { challenge, solution }.
 * - `recaptcha`: Google reCAPTCHA v3, verified with Google's siteverify API: success, action,
 *   hostname and a minimum score.
 * Either way a token is accepted once: its hash is kept in `used_bot_tokens` until it would have
 * expired anyway.
 */

export type BotAction = 'SearchAction' | 'SubmitFormAction';

export interface BotCheck {
  readonly provider: Config['botCheckProvider'];
  /** Throws ApiError 403 BOT_CHECK_* when the token is missing, forged, expired or used. */
  verify(token: string | undefined, action: BotAction, hostname: string): Promise<void>;
  /** A new ALTCHA challenge (altcha provider only). */
  createChallenge(): Promise<Challenge>;
  /** Deletes used-token rows past their expiry; returns how many. Also run now and then by verify. */
  purgeExpired(): Promise<number>;
}

/** The bot check's error codes: the API contract's (packages/domain/src/api/errors.ts). */
export { BOT_CHECK_CODES };

export const DEFAULT_RECAPTCHA_VERIFY_URL = 'https://www.google.com/recaptcha/api/siteverify';

export interface BotCheckOptions {
  /** reCAPTCHA siteverify address (tests run a local one). */
  recaptchaVerifyUrl?: string;
  fetch?: typeof fetch;
  now?: () => Date;
  /** How long a reCAPTCHA token stays in the replay table (Google's tokens live 2 minutes). */
  recaptchaTokenLifetimeSeconds?: number;
}

/** Longest token looked at: real ones are a few kB; anything longer is refused unread. */
const MAX_TOKEN_LENGTH = 8192;
const PURGE_INTERVAL_MS = 60_000;
const ALTCHA_ALGORITHM = 'SHA-256';

const deny = (code: ApiErrorCode, message: string) => new ApiError(403, code, message);

function tokenHash(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Hostnames compare without port and case: 'Example.cz:443' is 'example.cz'. */
export function bareHostname(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.indexOf(':');
  return colon === -1 ? h : h.slice(0, colon);
}

interface AltchaPayload {
  challenge: Challenge;
  solution: Solution;
}

function parseAltchaToken(token: string): AltchaPayload | undefined {
  try {
    const json = Buffer.from(token, 'base64').toString('utf8');
    const p = JSON.parse(json) as Partial<AltchaPayload>;
    const params = p?.challenge?.parameters;
    if (
      !p ||
      typeof p !== 'object' ||
      !params ||
      typeof params !== 'object' ||
      typeof p.challenge?.signature !== 'string' ||
      !p.solution ||
      typeof p.solution !== 'object'
    ) {
      return undefined;
    }
    return p as AltchaPayload;
  } catch {
    return undefined;
  }
}

export function createBotCheck(config: Config, db: Db, opts: BotCheckOptions = {}): BotCheck {
  const now = opts.now ?? (() => new Date());
  const doFetch = opts.fetch ?? fetch;
  const verifyUrl = opts.recaptchaVerifyUrl ?? (config.recaptchaVerifyUrl || DEFAULT_RECAPTCHA_VERIFY_URL);
  // Empty key = a random one per start: challenges then verify only in this process.
  const hmacKey = config.altchaHmacKey || randomBytes(32).toString('hex');
  const keySignatureSecret = createHmac('sha256', hmacKey).update('ros-altcha-key-signature').digest('hex');
  let lastPurge = 0;

  async function purgeExpired(): Promise<number> {
    lastPurge = now().getTime();
    const r = await db.kysely
      .deleteFrom('used_bot_tokens')
      .where('expires_at', '<', now().toISOString())
      .executeTakeFirst();
    return Number(r.numDeletedRows ?? 0);
  }

  /** Records a token as used; false when it was used before. Purges old rows now and then. */
  async function markUsed(hash: string, expiresAt: Date): Promise<boolean> {
    if (now().getTime() - lastPurge > PURGE_INTERVAL_MS) {
      await purgeExpired().catch(() => {});
    }
    const r = await db.kysely
      .insertInto('used_bot_tokens')
      .values({ token_hash: hash, expires_at: expiresAt.toISOString() })
      .onConflict((oc) => oc.column('token_hash').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  async function verifyAltcha(token: string): Promise<void> {
    const payload = parseAltchaToken(token);
    if (!payload) throw deny(BOT_CHECK_CODES.invalid, 'Bot-check token is not valid');
    if (payload.challenge.parameters.algorithm !== ALTCHA_ALGORITHM) {
      throw deny(BOT_CHECK_CODES.invalid, 'Bot-check token is not valid');
    }
    let result: Awaited<ReturnType<typeof verifySolution>>;
    try {
      result = await verifySolution({
        challenge: payload.challenge,
        solution: payload.solution,
        deriveKey: deriveShaKey,
        hmacSignatureSecret: hmacKey,
        hmacKeySignatureSecret: keySignatureSecret,
      });
    } catch {
      throw deny(BOT_CHECK_CODES.invalid, 'Bot-check token is not valid');
    }
    if (result.expired) throw deny(BOT_CHECK_CODES.expired, 'Bot-check token has expired');
    if (!result.verified) throw deny(BOT_CHECK_CODES.invalid, 'Bot-check token is not valid');
    // Signed, so expiresAt is ours; every challenge we issue has one.
    const expiresAt = payload.challenge.parameters.expiresAt;
    if (!expiresAt) throw deny(BOT_CHECK_CODES.invalid, 'Bot-check token is not valid');
    // One solution per challenge: the challenge's signature identifies it.
    const fresh = await markUsed(
      tokenHash(`altcha:${payload.challenge.signature}`),
      new Date(expiresAt * 1000),
    );
    if (!fresh) throw deny(BOT_CHECK_CODES.replayed, 'Bot-check token was already used');
  }

  async function verifyRecaptcha(token: string, action: BotAction, hostname: string): Promise<void> {
    let answer: {
      success?: unknown;
      score?: unknown;
      action?: unknown;
      hostname?: unknown;
      'error-codes'?: unknown;
    };
    try {
      const res = await doFetch(verifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ secret: config.recaptchaSecret, response: token }).toString(),
        signal: AbortSignal.timeout(5000),
      });
      if (!res.ok) throw new Error(`siteverify answered ${res.status}`);
      answer = (await res.json()) as typeof answer;
    } catch {
      throw new ApiError(503, BOT_CHECK_CODES.unavailable, 'The bot check could not be verified; try again');
    }
    if (answer.success !== true) {
      const errors = Array.isArray(answer['error-codes']) ? answer['error-codes'] : [];
      if (errors.includes('timeout-or-duplicate')) {
        throw deny(BOT_CHECK_CODES.expired, 'Bot-check token has expired or was already used');
      }
      throw deny(BOT_CHECK_CODES.invalid, 'Bot-check token is not valid');
    }
    if (answer.action !== action) throw deny(BOT_CHECK_CODES.action, 'Bot-check token is for another action');
    if (typeof answer.hostname !== 'string' || bareHostname(answer.hostname) !== bareHostname(hostname)) {
      throw deny(BOT_CHECK_CODES.hostname, 'Bot-check token is for another site');
    }
    if (typeof answer.score !== 'number' || answer.score < config.recaptchaMinScore) {
      throw deny(BOT_CHECK_CODES.score, 'Bot-check score is too low');
    }
    const lifetime = (opts.recaptchaTokenLifetimeSeconds ?? 120) * 1000;
    const fresh = await markUsed(tokenHash(`recaptcha:${token}`), new Date(now().getTime() + lifetime));
    if (!fresh) throw deny(BOT_CHECK_CODES.replayed, 'Bot-check token was already used');
  }

  return {
    provider: config.botCheckProvider,
    async verify(token, action, hostname) {
      const t = token?.trim();
      if (!t) throw deny(BOT_CHECK_CODES.missing, 'The Recaptcha header with a bot-check token is required');
      if (t.length > MAX_TOKEN_LENGTH) throw deny(BOT_CHECK_CODES.invalid, 'Bot-check token is not valid');
      if (config.botCheckProvider === 'recaptcha') return verifyRecaptcha(t, action, hostname);
      return verifyAltcha(t);
    },
    async createChallenge() {
      const max = config.altchaMaxNumber;
      return createChallenge({
        algorithm: ALTCHA_ALGORITHM,
        cost: 1,
        // Deterministic mode: the solver must try every counter up to this one.
        counter: randomInt(max, Math.ceil(max / 2)),
        deriveKey: deriveShaKey,
        expiresAt: new Date(now().getTime() + config.altchaExpiresSeconds * 1000),
        hmacSignatureSecret: hmacKey,
        hmacKeySignatureSecret: keySignatureSecret,
      });
    },
    purgeExpired,
  };
}

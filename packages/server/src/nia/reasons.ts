/**
 * Why a NIA sign-in failed, as one fixed word for the log line (docs/nia.md lists them). Built
 * from the error's class, code and message of openid-client / oauth4webapi / jose, never from
 * anything the provider wrote: no token, claim value or personal data can reach the log.
 */

/** Why a sign-in failed: a fixed word for the log (never personal data). */
export class SignInError extends Error {
  constructor(public readonly reason: string) {
    super(`NIA sign-in failed: ${reason}`);
  }
}

type Stage = 'discovery' | 'token' | 'userinfo';

interface Shape {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  error?: unknown;
  claim?: unknown;
  cause?: unknown;
}

function chain(err: unknown): Shape[] {
  const out: Shape[] = [];
  let e: unknown = err;
  for (let i = 0; i < 6 && e && typeof e === 'object'; i++) {
    out.push(e as Shape);
    e = (e as Shape).cause;
  }
  return out;
}

const WORD = /^[a-z][a-z0-9_]{0,39}$/;
const JOSE_CODES: Record<string, string> = {
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: 'id_token_signature',
  ERR_JOSE_ALG_NOT_ALLOWED: 'id_token_alg',
  ERR_JWKS_NO_MATCHING_KEY: 'id_token_key_unknown',
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: 'id_token_key_ambiguous',
  ERR_JWT_EXPIRED: 'id_token_exp',
  ERR_JWS_INVALID: 'id_token_invalid',
  ERR_JWT_INVALID: 'id_token_invalid',
  ERR_JWKS_TIMEOUT: 'jwks_timeout',
  ERR_JWKS_INVALID: 'jwks_invalid',
};

export function reasonOf(stage: Stage, err: unknown): string {
  if (err instanceof SignInError) return err.reason;
  const all = chain(err);
  const text = all.map((e) => (typeof e.message === 'string' ? e.message : '')).join(' | ');
  const has = (re: RegExp) => re.test(text);
  for (const e of all) {
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return `${stage}_timeout`;
  }
  for (const e of all) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && typeof e.claim === 'string' && WORD.test(e.claim)) {
      return `id_token_${e.claim}`;
    }
    if (JOSE_CODES[code]) return JOSE_CODES[code];
    // The provider's OAuth error code at the token or userinfo endpoint (invalid_client, …).
    if (typeof e.error === 'string' && WORD.test(e.error)) return `${stage}_${e.error}`;
  }
  if (has(/"iss" \(issuer\) missing/)) return 'iss_missing';
  if (has(/unexpected "iss" \(issuer\) response parameter/)) return 'iss_mismatch';
  if (has(/"state" response parameter/) || has(/"state" missing/)) return 'state_mismatch';
  if (has(/JWE decryption is not configured/)) return 'id_token_encrypted';
  if (has(/decryption/)) return 'decryption_failed';
  if (has(/unexpected JWT "alg"/)) return 'id_token_alg';
  if (stage === 'userinfo' && has(/"sub" property/)) return 'userinfo_sub_mismatch';
  // A required claim the ID token lacks (oauth4webapi: 'JWT "nonce" (nonce) claim missing').
  const missing = /JWT "([a-z_]{1,20})" \([^)]*\) claim missing/.exec(text)?.[1];
  if (missing) return `id_token_${missing}`;
  for (const e of all) {
    const claim = (e.cause as Shape | undefined)?.claim ?? e.claim;
    if (typeof claim === 'string' && WORD.test(claim)) return `id_token_${claim}`;
  }
  if (has(/audience/)) return 'id_token_aud';
  if (has(/fetch failed|ECONNREFUSED|ECONNRESET|socket/i)) return `${stage}_unreachable`;
  if (has(/unexpected HTTP response status code/)) return `${stage}_http_status`;
  return `${stage}_failed`;
}

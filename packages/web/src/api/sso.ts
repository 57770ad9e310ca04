import {
  type NiaIdentityAnswer,
  SSO_ERROR_CODES,
  type SsoSessionAnswer,
  type SsoSessionTime,
} from '@ros/domain';
import { ApiRequestError, apiGet, apiPost } from './client';

/** The identity NIA released (spec section 3, "Sign-in session"); the API contract's shape. */
export type NiaIdentity = NiaIdentityAnswer;

/**
 * What GET /api/ros/sso-session answers (the API contract, @ros/domain): the NIA identity, the
 * register's data of that person (`szr`, the search answer's shape), the certificate, the AIFO
 * and the data mailbox. The register parts are null when the register does not know the person.
 */
export type SsoSession = Omit<SsoSessionAnswer, keyof SsoSessionTime> & Partial<SsoSessionTime>;
export type { SsoSessionTime };

/** The server's code for "no sign-in session" (401). */
export const NO_SESSION = SSO_ERROR_CODES.noSession;

/**
 * Loads the sign-in session. Resolves null when there is none (401: never signed in, expired
 * or already used by a submit); any other failure rejects with ApiRequestError.
 */
export async function loadSsoSession(): Promise<SsoSession | null> {
  try {
    const s = await apiGet<SsoSession>('/sso-session');
    if (!s || typeof s !== 'object' || !s.nia || typeof s.nia !== 'object') {
      throw new ApiRequestError(0, 'INVALID_RESPONSE', 'Not a sign-in session');
    }
    return s;
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) return null;
    throw error;
  }
}

/**
 * More time for the sign-in (POST /api/ros/sso-session/extend, the expiry warning): the new
 * remaining time, or null when the session has already ended (401).
 */
export async function extendSsoSession(): Promise<SsoSessionTime | null> {
  try {
    return await apiPost<SsoSessionTime>('/sso-session/extend', {});
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) return null;
    throw error;
  }
}

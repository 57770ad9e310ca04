import type { RegisterRecord, SearchAnswer } from '@ros/domain';
import { ApiRequestError, apiGet } from './client';

/** The identity NIA released (spec section 3, "Sign-in session"). */
export interface NiaIdentity {
  /** False when NIA did not release the first name, the last name or the birth date. */
  complete: boolean;
  first_name: string | null;
  last_name: string | null;
  /** YYYY-MM-DD */
  birth_date: string | null;
}

/**
 * What GET /api/ros/sso-session answers: the NIA identity, the register's data of that person
 * (`szr`, the same shape as the search answer, with its own `record`), the certificate, the
 * AIFO and the data mailbox. The register parts are null when the register does not know the person.
 */
export interface SsoSession {
  nia: NiaIdentity;
  szr: SearchAnswer | null;
  record: RegisterRecord | null;
  aifo: string | null;
  databox: string | null;
}

/** The server's code for "no sign-in session" (401). */
export const NO_SESSION = 'NO_SESSION';

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

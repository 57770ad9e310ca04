/**
 * Every error code the server answers (docs/errors.md), grouped by who answers it. The server's
 * ApiError takes only these codes (ApiErrorCode, errors.ts), and the web app branches on them:
 * one list for both ends. Apart from errors.ts so that the browser's bundle, which needs a few
 * codes, does not carry the error schema.
 */
export const COMMON_ERROR_CODES = [
  'BAD_REQUEST',
  'BAD_URL',
  'INVALID_JSON',
  'INVALID_REQUEST',
  'NOT_FOUND',
  'REQUEST_TIMEOUT',
  'PAYLOAD_TOO_LARGE',
  'URI_TOO_LONG',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'HEADERS_TOO_LARGE',
  'INTERNAL_ERROR',
  'NOT_READY',
  'UNAVAILABLE',
] as const;

/** POST /api/ros/search and search-birth-number: no person matches (404). */
export const SEARCH_ERROR_CODES = { notFound: 'PERSON_NOT_FOUND' } as const;

/** The bot check of search and submit (403, or 503 when the provider cannot be asked). */
export const BOT_CHECK_CODES = {
  missing: 'BOT_CHECK_MISSING',
  invalid: 'BOT_CHECK_INVALID',
  expired: 'BOT_CHECK_EXPIRED',
  replayed: 'BOT_CHECK_REPLAYED',
  action: 'BOT_CHECK_ACTION',
  hostname: 'BOT_CHECK_HOSTNAME',
  score: 'BOT_CHECK_SCORE',
  unavailable: 'BOT_CHECK_UNAVAILABLE',
  /** GET /api/ros/altcha-challenge when the server's provider is not ALTCHA (404). */
  provider: 'BOT_CHECK_PROVIDER',
} as const;

/** POST /api/ros (submit). */
export const SUBMIT_ERROR_CODES = {
  invalidForm: 'INVALID_FORM',
  invalidRequest: 'INVALID_REQUEST',
  timeNotCovered: 'TIME_NOT_COVERED',
  niaMismatch: 'NIA_IDENTITY_MISMATCH',
  /** The match token's person is not the one the request names (a bound field differs, issue 21). */
  matchMismatch: 'MATCH_MISMATCH',
  keyReused: 'IDEMPOTENCY_KEY_REUSED',
  keyInvalid: 'INVALID_IDEMPOTENCY_KEY',
  /** The dialog showed the NIA declarations (`legal_channel: nia`) but the sign-in has ended (401). */
  sessionExpired: 'SESSION_EXPIRED',
} as const;

/** GET /api/ros/pdf/{id}. */
export const PDF_ERROR_CODES = { notFound: 'REQUEST_NOT_FOUND', busy: 'PDF_BUSY' } as const;

/** GET /api/ros/sso-session without a sign-in (401); a bad `from` of sso-redirect (400). */
export const SSO_ERROR_CODES = { noSession: 'NO_SESSION', invalidRequest: 'INVALID_REQUEST' } as const;

/**
 * POST /api/ros/status (docs/status.md): an unknown reference and a wrong access code get this
 * one answer (404), so the answer never tells whether a reference exists.
 */
export const STATUS_ERROR_CODES = { notFound: 'STATUS_NOT_FOUND' } as const;

/** The authority's intake API (/api/intake/v1, docs/intake.md). */
export const INTAKE_ERROR_CODES = [
  /** POST requests/{reference}/status: the change may not follow the request's status (409). */
  'STATUS_TRANSITION',
  /** POST requests/{reference}/status: `certificate` is not one of the request's person in the register (400). */
  'CERTIFICATE_MISMATCH',
  /** POST requests/{reference}/correction: only a decided request (issued, refused, withdrawn) is corrected (409). */
  'NOT_DECIDED',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'REQUEST_NOT_FOUND',
  'REQUEST_ERASED',
  'PERSON_NOT_FOUND',
  'NIA_IDENTIFIER_TAKEN',
] as const;

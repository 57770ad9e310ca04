/**
 * The console's staff sign-in (issue 38, docs/console-signin.md): the routes (register
 * `consoleAuthRoutes` at the root), the service built once per app (services.ts), and what the
 * console's pages use: `loadStaff` (who is signed in), `csrfOk` (every changing form) and the
 * sign-in addresses.
 */
export { CONSOLE_ID_TOKEN_ALGS, ConsoleClient, type ConsoleIdentity } from './client.js';
export { CSRF_FIELD, csrfOk, sameOriginRequest } from './csrf.js';
export {
  CONSOLE_TEST_PROVIDER_PATH,
  SIGNED_OUT,
  SIGNIN_CALLBACK,
  SIGNIN_ERRORS,
  SIGNIN_PAGE,
  SIGNIN_START,
  SIGNOUT,
  type SignInErrorCode,
  STAFF_COOKIE,
} from './paths.js';
export { claimValue, roleFromClaim } from './roles.js';
export { consoleAuthRoutes } from './routes.js';
export { type ConsoleAuthService, type ConsoleSignIn, createConsoleAuthService } from './service.js';
export { loadStaff, purgeExpiredStaffSessions } from './sessions.js';
export { TEST_STAFF } from './testStaff.js';

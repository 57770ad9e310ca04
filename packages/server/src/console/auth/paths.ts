import type { Config } from '../../config/config.js';
import { CONSOLE_PATH } from '../staff.js';

/** The console's sign-in addresses and cookies (docs/console-signin.md). */

/** The sign-in page (drawn by the console's pages); failures come back with `?chyba=CODE`. */
export const SIGNIN_PAGE = `${CONSOLE_PATH}/prihlaseni`;
/** GET: starts a sign-in at the provider. */
export const SIGNIN_START = `${SIGNIN_PAGE}/zahajit`;
/** GET: the provider's redirect back (the redirect URI registered with it). */
export const SIGNIN_CALLBACK = `${SIGNIN_PAGE}/navrat`;
/** POST (CSRF-checked): ends the session. */
export const SIGNOUT = `${CONSOLE_PATH}/odhlaseni`;
/** Where the local staff provider is mounted (outside production, like /nia-test). */
export const CONSOLE_TEST_PROVIDER_PATH = '/urad-test';

/** The staff session's cookie: HttpOnly, SameSite=Strict, Path=/urad. */
export const STAFF_COOKIE = 'ros_console';
/** The sign-in under way: HttpOnly, SameSite=Lax (the callback is a top-level GET from the provider), Path=/urad/prihlaseni. */
export const PENDING_COOKIE = 'ros_console_signin';
/** How long a started sign-in may take. */
export const PENDING_MINUTES = 10;

/** Why a sign-in ended on the sign-in page (`?chyba=`). */
export const SIGNIN_ERRORS = ['cancelled', 'failed', 'no_role', 'expired'] as const;
export type SignInErrorCode = (typeof SIGNIN_ERRORS)[number];

export const signInFailed = (code: SignInErrorCode): string => `${SIGNIN_PAGE}?chyba=${code}`;
export const SIGNED_OUT = `${SIGNIN_PAGE}?odhlaseno=1`;

/** The local provider's issuer for a public address. */
export const consoleTestIssuer = (publicUrl: string): string => `${publicUrl}${CONSOLE_TEST_PROVIDER_PATH}`;

/** The issuer the console's client talks to: ROS_CONSOLE_ISSUER, else the local provider. */
export const consoleIssuerOf = (config: Config): string =>
  config.consoleIssuer || consoleTestIssuer(config.publicUrl);

/** The redirect URI registered with the provider. */
export const consoleCallbackUrl = (publicUrl: string): string => `${publicUrl}${SIGNIN_CALLBACK}`;

/** Cookies are Secure when the public address is https, and always in production. */
export const secureCookies = (config: Config, publicUrl: string): boolean =>
  config.production || publicUrl.startsWith('https:');

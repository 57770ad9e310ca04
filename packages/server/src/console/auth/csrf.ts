import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Staff } from '../staff.js';

/**
 * CSRF protection of every action of the console (docs/console-signin.md "CSRF"): the form's
 * token must be the session's (compared in constant time), and the browser must say the request
 * comes from the console's own pages: `Sec-Fetch-Site` (when sent) `same-origin`, and `Origin`
 * (when sent) the public origin. The session cookie's SameSite=Strict is a third layer.
 */

/** The form field (and the value of `Staff.csrf`) every changing form of the console sends. */
export const CSRF_FIELD = 'csrf';

/** The public origin the console is served at for this request (per loopback address in development). */
export function publicOrigin(request: FastifyRequest): string | undefined {
  const auth = (
    request.server as {
      services?: { consoleAuth?: { forHost(h: string | undefined): { publicUrl: string } } };
    }
  ).services?.consoleAuth;
  if (!auth) return undefined;
  return new URL(auth.forHost(request.headers.host).publicUrl).origin;
}

/** Whether the request comes from the console's own pages (Fetch Metadata and Origin). */
export function sameOriginRequest(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  // A browser older than 2023 sends none; `none` is a typed address or a bookmark, never a form post of a page.
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return origin === publicOrigin(request);
}

/** Whether `token` is the session's CSRF token and the request comes from the console's own pages. */
export function csrfOk(request: FastifyRequest, staff: Staff, token: unknown): boolean {
  if (typeof token !== 'string' || staff.csrf === '') return false;
  const a = Buffer.from(token, 'utf8');
  const b = Buffer.from(staff.csrf, 'utf8');
  const same = a.length === b.length && timingSafeEqual(a, b);
  return same && sameOriginRequest(request);
}

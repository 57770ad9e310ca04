import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReactElement } from 'react';
import type { Db } from '../../db/database.js';
import { audit } from '../../intake/audit.js';
import { csrfOk, loadStaff } from '../auth/index.js';
import type { PageFrame } from '../pages/Layout.js';
import { renderPage } from '../pages/render.js';
import { type MessageKind, MessagePage } from '../pages/SimplePages.js';
import { CONSOLE_PATH, mayAct, mayAdminister, type Staff } from '../staff.js';

/**
 * What every console route shares: the page headers, the gate (signed in, with the role the
 * route needs), the CSRF check of a form, and the audit row of a look or an action.
 */

/**
 * The console's pages load one stylesheet of their own origin and nothing else: no script at
 * all, forms only to the console, frames only of its own PDF, never framed.
 */
export const CONSOLE_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

export const CONSOLE_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // Not no-referrer: under it Chromium sends `Origin: null` with the console's own form posts,
  // which the CSRF check (auth/csrf.ts) then refuses. same-origin: nothing leaves for another site.
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
} as const;

export interface ConsoleDeps {
  db: Db;
  /** The console stylesheet's address in the web build, or null (API-only server: unstyled pages). */
  stylesheet: string | null;
}

export function sendPage(reply: FastifyReply, status: number, page: ReactElement): FastifyReply {
  return reply.status(status).headers(CONSOLE_PAGE_HEADERS).send(renderPage(page));
}

export function frameOf(deps: ConsoleDeps, staff: Staff | null, current?: PageFrame['current']): PageFrame {
  return { stylesheet: deps.stylesheet, staff, ...(current ? { current } : {}) };
}

const MESSAGE_STATUS: Record<MessageKind, number> = {
  forbidden: 403,
  notFound: 404,
  badRequest: 400,
  gone: 410,
};

export function sendMessage(
  reply: FastifyReply,
  deps: ConsoleDeps,
  staff: Staff | null,
  kind: MessageKind,
): FastifyReply {
  const status = MESSAGE_STATUS[kind];
  return sendPage(reply, status, MessagePage({ frame: frameOf(deps, staff), kind }));
}

export type Need = 'look' | 'act' | 'administer';

const allowed = (staff: Staff, need: Need) =>
  need === 'look' ? true : need === 'act' ? mayAct(staff.role) : mayAdminister(staff.role);

/**
 * The staff member of a request, when signed in with the role `need` asks; otherwise the answer
 * is sent (a page asked for without a session goes to the sign-in, a form sent without one gets
 * 403; a role that may not gets 403 and an audit row `denied`) and null is returned.
 */
export async function gate(
  deps: ConsoleDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  need: Need,
): Promise<Staff | null> {
  const staff = await loadStaff(deps.db, req);
  if (!staff) {
    if (req.method === 'GET' || req.method === 'HEAD') {
      void reply.status(303).header('cache-control', 'no-store').redirect(`${CONSOLE_PATH}/prihlaseni`, 303);
    } else sendMessage(reply, deps, null, 'forbidden');
    return null;
  }
  if (!allowed(staff, need)) {
    await audit(deps.db, { actor: staff.actor, action: `console.${need}`, target: null, outcome: 'denied' });
    sendMessage(reply, deps, staff, 'forbidden');
    return null;
  }
  return staff;
}

/** A form's fields (the console's parser makes an object of strings, console/routes/index.ts). */
export function formOf(req: FastifyRequest): Record<string, string> {
  const b = req.body;
  return typeof b === 'object' && b !== null && !Array.isArray(b) ? (b as Record<string, string>) : {};
}

/** Whether the form carries the session's CSRF token and comes from the console's own origin. */
export function formAllowed(req: FastifyRequest, staff: Staff): boolean {
  return csrfOk(req, staff, formOf(req).csrf);
}

/** A look or an action, in the audit trail with the staff member's identity (never a value of the request). */
export function auditConsole(
  deps: ConsoleDeps,
  staff: Staff,
  action: string,
  target: string | null,
  outcome: 'ok' | 'denied' | 'not_found' | 'invalid' | 'gone' = 'ok',
  detail: string | null = null,
): Promise<void> {
  return audit(deps.db, { actor: staff.actor, action: `console.${action}`, target, outcome, detail });
}

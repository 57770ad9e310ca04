import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  createToken,
  listTokens,
  parseScopes,
  revokeToken,
  SCOPES,
  TOKEN_NAME_PATTERN,
} from '../../intake/tokens.js';
import { dueRequests } from '../../retention/index.js';
import type { ServerContext } from '../../services.js';
import { AdminPage, type AdminView, type CreateForm, scopeField } from '../pages/AdminPage.js';
import type { FieldError } from '../pages/Layout.js';
import { CONSOLE_PATH, type Staff } from '../staff.js';
import { T } from '../texts.js';
import {
  auditConsole,
  type ConsoleDeps,
  formAllowed,
  formOf,
  frameOf,
  gate,
  sendMessage,
  sendPage,
} from './common.js';

/**
 * The administrator's page (issue 38, docs/console.md "Administration"): the intake API's
 * tokens (create, shown once; revoke) by the same functions as `ros-admin tokens`
 * (intake/tokens.ts), and the retention purge's state: what it would erase now (dueRequests, as
 * `ros-admin purge --dry-run` counts), its settings, and its last run from the audit trail (the
 * purge writes one row `purge` per run). No purge button: the scheduler runs it.
 */

/** The most requests counted as due (as `purge --dry-run` lists them). */
const DUE_LIMIT = 100_000;

async function viewOf(deps: ConsoleDeps, ctx: ServerContext, now: Date): Promise<AdminView> {
  const tokens = await listTokens(deps.db);
  const due = await dueRequests(deps.db, ctx.config, now, DUE_LIMIT);
  // The newest run's row (not a dry run); the index on `at` read backwards, so only back to it.
  const last = await deps.db.kysely
    .selectFrom('audit_log')
    .select(['at', 'actor', 'detail'])
    .where('action', '=', 'purge')
    .where('outcome', '=', 'ok')
    .orderBy('at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return {
    tokens,
    retention: {
      due: due.length,
      receivedDays: ctx.config.retentionReceivedDays,
      unreceivedDays: ctx.config.retentionUnreceivedDays,
      lastPurge: last ? { at: last.at, actor: last.actor, detail: last.detail } : null,
    },
  };
}

/** The staff member of an administrator's form with a good CSRF token, else the answer is sent. */
async function adminForm(deps: ConsoleDeps, req: FastifyRequest, reply: FastifyReply): Promise<Staff | null> {
  const staff = await gate(deps, req, reply, 'administer');
  if (!staff) return null;
  if (!formAllowed(req, staff)) {
    await auditConsole(deps, staff, 'csrf', null, 'denied');
    sendMessage(reply, deps, staff, 'badRequest');
    return null;
  }
  return staff;
}

const EMPTY_FORM: CreateForm = { name: '', scopes: [] };

export function adminRoutes(app: FastifyInstance, deps: ConsoleDeps, ctx: ServerContext): void {
  const page = async (
    reply: FastifyReply,
    staff: Staff,
    status: number,
    extra: {
      form?: CreateForm;
      errors?: FieldError[];
      created?: { name: string; token: string };
      done?: string;
    },
  ) =>
    sendPage(
      reply,
      status,
      AdminPage({
        frame: frameOf(deps, staff, 'admin'),
        staff,
        view: await viewOf(deps, ctx, new Date()),
        form: extra.form ?? EMPTY_FORM,
        errors: extra.errors ?? [],
        created: extra.created ?? null,
        done: extra.done ?? null,
      }),
    );

  app.get(`${CONSOLE_PATH}/sprava`, async (req, reply) => {
    const staff = await gate(deps, req, reply, 'administer');
    if (!staff) return reply;
    const q = (req.query ?? {}) as Record<string, unknown>;
    const done = typeof q.hotovo === 'string' && q.hotovo in T.adminDone ? q.hotovo : undefined;
    await auditConsole(deps, staff, 'admin', null);
    return page(reply, staff, 200, done ? { done } : {});
  });

  app.post(`${CONSOLE_PATH}/sprava/tokeny`, async (req, reply) => {
    const staff = await adminForm(deps, req, reply);
    if (!staff) return reply;
    const fields = formOf(req);
    const name = (fields.name ?? '').trim();
    // The scopes as `ros-admin tokens create --scopes` reads them, one checkbox each.
    const { scopes } = parseScopes(SCOPES.filter((s) => fields[scopeField(s)] === '1').join(' '));
    const form: CreateForm = { name: name.slice(0, 64), scopes };
    const errors: FieldError[] = [];
    if (!TOKEN_NAME_PATTERN.test(name)) errors.push({ field: 'token-nazev', message: T.adminErrors.name });
    if (scopes.length === 0) errors.push({ field: 'token-opravneni-0', message: T.adminErrors.scopes });
    if (errors.length === 0) {
      const token = await createToken(deps.db, name, scopes, staff.actor);
      if (token) {
        // Never the token itself: its name (not personal data) and scopes.
        await auditConsole(deps, staff, 'token_create', `token:${name}`, 'ok', scopes.join(' '));
        return page(reply, staff, 200, { created: { name, token } });
      }
      errors.push({ field: 'token-nazev', message: T.adminErrors.taken });
    }
    await auditConsole(
      deps,
      staff,
      'token_create',
      TOKEN_NAME_PATTERN.test(name) ? `token:${name}` : null,
      'invalid',
    );
    return page(reply, staff, 400, { form, errors });
  });

  app.post(`${CONSOLE_PATH}/sprava/tokeny/:name/zrusit`, async (req, reply) => {
    const staff = await adminForm(deps, req, reply);
    if (!staff) return reply;
    const name = String((req.params as { name?: string }).name ?? '');
    const r = TOKEN_NAME_PATTERN.test(name) ? await revokeToken(deps.db, name) : 'unknown';
    if (r === 'unknown') {
      await auditConsole(deps, staff, 'token_revoke', null, 'not_found');
      return sendMessage(reply, deps, staff, 'notFound');
    }
    if (r === 'revoked') await auditConsole(deps, staff, 'token_revoke', `token:${name}`);
    return reply.redirect(`${CONSOLE_PATH}/sprava?hotovo=${r}`, 303);
  });
}

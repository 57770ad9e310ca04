import type {
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  RequestPayload,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { z } from 'zod';
import { ApiError } from '../errors.js';
import { API_SECURITY_HEADERS } from '../http/apiHeaders.js';
import { type AuditEntry, audit } from '../intake/audit.js';
import { CERTIFICATE_MISMATCH_MESSAGE } from '../intake/certificate.js';
import {
  type CorrectionAnswer,
  GIVEN_ONCE,
  INTAKE_API_CALLS,
  type IntakeCall,
  type IntakeCallKey,
  intakeCallKey,
  type PersonAnswer,
  type RecordAnswer,
  requestListQuerySchema,
  type StatusChangeAnswer,
} from '../intake/contract.js';
import { checkCorrection, correctDecision } from '../intake/correction.js';
import { DEFAULT_PAGE } from '../intake/paging.js';
import {
  deletePerson,
  MAX_PERSON_ID,
  MAX_RECORD_ID,
  pathId,
  putPerson,
  putRecord,
} from '../intake/register.js';
import { findByReference, listRequests, markReceived, toDetail } from '../intake/requests.js';
import { changeStatus, checkStatusChange, statusHistory } from '../intake/status.js';
import { authenticate, type Scope } from '../intake/tokens.js';
import { pdfSources, renderForAnswer, requestPdfModel } from '../pdf/requestPdf.js';
import { parseReference } from '../requests/repository.js';
import type { ServerContext } from '../services.js';

/**
 * The intake API for the authority's back office, under /api/intake/v1 (docs/intake.md):
 * bearer tokens with scopes (intake/tokens.ts), every call made with a valid token written to
 * the audit trail (who, what, which reference, how it ended), rate limited per address, the
 * error shape of errors.ts. The server's retention purge (once per instance group,
 * retention/scheduler.ts) is one of the app's services (services.ts).
 *
 * The calls are the contract's (INTAKE_API_CALLS, intake/contract.ts): each is registered with
 * the method, path and scopes of its entry; this module gives each call only its handler, its
 * audit action, its body limit and its audit target.
 */

const unauthorized = () =>
  new ApiError(401, 'UNAUTHORIZED', 'A valid intake token is required (Authorization: Bearer …)', undefined, {
    'WWW-Authenticate': 'Bearer realm="ros-intake"',
  });
const requestNotFound = () => new ApiError(404, 'REQUEST_NOT_FOUND', 'No request has this reference');
const requestErased = () =>
  new ApiError(410, 'REQUEST_ERASED', 'The personal data of this request was erased (retention)');
const invalid = (fields: Array<{ path: string; message: string }>, message = 'The request is not valid') =>
  new ApiError(400, 'INVALID_REQUEST', message, fields.slice(0, 20));

/** What the audit row of a call will say; filled in by the guard and the handler. */
interface CallAudit {
  actor: string;
  action: string;
  target?: string;
  detail?: string;
}
const calls = new WeakMap<FastifyRequest, CallAudit>();

function outcomeOf(status: number): NonNullable<AuditEntry['outcome']> {
  if (status < 400) return 'ok';
  if (status === 403) return 'denied';
  if (status === 404) return 'not_found';
  if (status === 410) return 'gone';
  if (status >= 500) return 'error';
  return 'invalid';
}

const TOKEN_HEADER = /^Bearer +(\S{1,200}) *$/i;

/** Audit targets from the path: only well-formed ones (a path may hold anything). */
const referenceTarget = (p: Record<string, string>) => parseReference(p.reference ?? '') ?? undefined;
const idTarget = (kind: string, id: string | undefined, max: number) => {
  const n = pathId(id ?? '', max);
  return n === null ? undefined : `${kind}:${n}`;
};

/**
 * A query's issues as the answer's fields: first each unknown parameter and each one given more
 * than once, in the query's order, then each bad value in the parameters' order.
 */
function queryProblems(error: z.ZodError, given: string[]): Array<{ path: string; message: string }> {
  const problems = error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((k) => ({ path: k, message: 'unknown parameter' }))
      : [{ path: issue.path.join('.'), message: issue.message }],
  );
  const first = (p: { path: string; message: string }) =>
    p.message === 'unknown parameter' || p.message === GIVEN_ONCE ? given.indexOf(p.path) : given.length;
  return problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => first(a.p) - first(b.p) || a.i - b.i)
    .map(({ p }) => p);
}

/** The contract's path as Fastify writes it: `/requests/{reference}` is `/requests/:reference`. */
export const routePath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/** The parameters of a contract path: `{ reference: string }` for `/requests/{reference}`. */
type PathParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Record<Name, string> & PathParams<Rest>
  : unknown;
type PathOf<K extends IntakeCallKey> = K extends `${string} ${infer P}` ? P : never;

/** What this module adds to a contract call: everything but its method, path and scopes. */
export interface IntakeRoute<K extends IntakeCallKey = IntakeCallKey> {
  /** The audit row's action (docs/intake.md "Audit"). */
  action: string;
  /** The largest body taken, in bytes (1 KiB when not given). */
  bodyLimit?: number;
  /** What the call is about, from the path, so that a denied call names it too. */
  target?: (params: Record<string, string>) => string | undefined;
  handler: (
    req: FastifyRequest<{ Params: PathParams<PathOf<K>>; Querystring: Record<string, unknown> }>,
    reply: FastifyReply,
  ) => Promise<unknown>;
}
/** One route for each call of the contract, by the call's key: the compiler refuses a missing or an extra one. */
type IntakeHandlers = { [K in IntakeCallKey]: IntakeRoute<K> };
/** A route whatever its call (its handler is typed by the call's key in IntakeHandlers). */
type AnyRoute = Omit<IntakeRoute, 'handler'> & { handler: unknown };

/**
 * Each call with its route, in the contract's order; throws (so the app does not start) when a
 * call has no route or a route names no call, whatever the types said.
 */
export function routesOf<C extends IntakeCall>(
  calls: readonly C[],
  routes: Readonly<Record<string, AnyRoute>>,
): Array<{ call: C; route: AnyRoute }> {
  const keys = new Set(calls.map(intakeCallKey));
  const extra = Object.keys(routes).filter((k) => !keys.has(k));
  if (extra.length > 0)
    throw new Error(`Intake routes without a call in INTAKE_API_CALLS: ${extra.join(', ')}`);
  return calls.map((call) => {
    const route = Object.hasOwn(routes, intakeCallKey(call)) ? routes[intakeCallKey(call)] : undefined;
    if (!route) throw new Error(`Intake call without a route: ${intakeCallKey(call)}`);
    return { call, route };
  });
}

const RECORD_BODY_LIMIT = 4 * 1024;
/** A person with 100 past activities and 6 stays abroad stays far below this. */
const PERSON_BODY_LIMIT = 256 * 1024;

export const intakeRoutes: FastifyPluginAsync<ServerContext> = async (app, ctx) => {
  // The app's one PDF pool (services.ts), shared with the public PDF route and the mail queue.
  const pool = ctx.services.pdf;

  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(API_SECURITY_HEADERS);
    reply.header('Cache-Control', 'no-store');
    done();
  });
  // The audit row is written before the answer leaves, with the status the handler (or the
  // error handler) set: so a denied or failed call is recorded too.
  app.addHook('onSend', async (req, reply, payload) => {
    const call = calls.get(req);
    if (call) {
      calls.delete(req);
      await audit(ctx.db, {
        actor: call.actor,
        action: call.action,
        target: call.target ?? null,
        outcome: outcomeOf(reply.statusCode),
        detail: call.detail ?? null,
      });
    }
    return payload;
  });

  const rateLimit = { max: ctx.config.rateLimitIntakePerMinute, timeWindow: '1 minute' };

  /** Route options: the rate limit, then the token and its scopes, before the body is read. */
  const guarded = (
    scopes: readonly Scope[],
    action: string,
    bodyLimit = 1024,
    // What the call is about, from the path, so that a denied call names it too.
    target?: (params: Record<string, string>) => string | undefined,
  ): RouteShorthandOptions => ({
    bodyLimit,
    config: { rateLimit },
    // preParsing: after the rate limit (an onRequest hook), before the body is parsed.
    preParsing: async (req: FastifyRequest, _reply: FastifyReply, payload: RequestPayload) => {
      const header = req.headers.authorization;
      const token = typeof header === 'string' ? TOKEN_HEADER.exec(header)?.[1] : undefined;
      const who = token ? await authenticate(ctx.db, token) : null;
      if (!who) throw unauthorized();
      calls.set(req, {
        actor: `token:${who.name}`,
        action,
        target: target?.(req.params as Record<string, string>),
      });
      const missing = scopes.find((scope) => !who.scopes.includes(scope));
      if (missing) throw new ApiError(403, 'FORBIDDEN', `This token lacks the scope ${missing}`);
      return payload;
    },
  });
  const note = (req: FastifyRequest, target: string, detail?: string) => {
    const call = calls.get(req);
    if (call) Object.assign(call, { target, detail });
  };
  const referenceOf = (req: FastifyRequest<{ Params: { reference: string } }>) => {
    const reference = parseReference(req.params.reference);
    if (!reference) throw requestNotFound();
    note(req, reference);
    return reference;
  };

  const handlers: IntakeHandlers = {
    'get /requests': {
      action: 'requests.list',
      handler: async (req) => {
        const parsed = requestListQuerySchema.safeParse(req.query);
        if (!parsed.success) throw invalid(queryProblems(parsed.error, Object.keys(req.query)));
        const { status, since, cursor, limit } = parsed.data;
        const page = await listRequests(ctx.db, {
          status,
          since,
          after: cursor,
          limit: limit ?? DEFAULT_PAGE,
        });
        const call = calls.get(req);
        if (call) call.detail = `items=${page.items.length}${status ? ` status=${status}` : ''}`;
        return page;
      },
    },
    'get /requests/{reference}': {
      action: 'requests.read',
      target: referenceTarget,
      handler: async (req) => {
        const found = await findByReference(ctx.db, referenceOf(req));
        if (found.kind === 'none') throw requestNotFound();
        if (found.kind === 'erased') throw requestErased();
        return toDetail(found, await statusHistory(ctx.db, found.request.id));
      },
    },
    'get /requests/{reference}/pdf': {
      action: 'requests.pdf',
      target: referenceTarget,
      handler: async (req, reply: FastifyReply) => {
        const found = await findByReference(ctx.db, referenceOf(req));
        if (found.kind === 'none') throw requestNotFound();
        if (found.kind === 'erased') throw requestErased();
        const { request } = found;
        const pdf = await renderForAnswer(
          (m) => pool.render(m),
          await requestPdfModel(pdfSources(ctx), request),
        );
        return reply
          .header('Content-Type', 'application/pdf')
          .header('Content-Disposition', `attachment; filename="${request.reference}.pdf"`)
          .send(pdf);
      },
    },
    'post /requests/{reference}/received': {
      action: 'requests.received',
      target: referenceTarget,
      handler: async (req) => {
        const r = await markReceived(ctx.db, referenceOf(req));
        if (r.outcome === 'none') throw requestNotFound();
        // A status change: the notifications the applicant asked for are queued (docs/status.md).
        if (r.outcome === 'received') ctx.services.mail.kick();
        const call = calls.get(req);
        if (call) call.detail = r.outcome;
        return r.summary;
      },
    },
    'post /requests/{reference}/status': {
      action: 'requests.status',
      bodyLimit: 2048,
      target: referenceTarget,
      handler: async (req) => {
        const reference = referenceOf(req);
        const checked = checkStatusChange(req.body);
        if (!checked.ok) throw invalid(checked.problems, 'The status change is not valid');
        const r = await changeStatus(ctx.db, reference, checked.change);
        if (r.outcome === 'none') throw requestNotFound();
        note(
          req,
          reference,
          r.outcome === 'changed'
            ? `${checked.change.status} notices=${r.notices}`
            : `${r.outcome} ${checked.change.status}`,
        );
        if (r.outcome === 'erased')
          throw new ApiError(
            410,
            'REQUEST_ERASED',
            "The request's personal data was erased (retention): a note or certificate is not stored",
          );
        if (r.outcome === 'certificateMismatch')
          throw new ApiError(
            400,
            'CERTIFICATE_MISMATCH',
            "The certificate is not one of this request's person in the register",
            [{ path: 'certificate', message: CERTIFICATE_MISMATCH_MESSAGE }],
          );
        if (r.outcome === 'refused')
          throw new ApiError(
            409,
            'STATUS_TRANSITION',
            `The request is ${r.summary.status}: it cannot become ${checked.change.status}`,
          );
        if (r.outcome === 'changed') ctx.services.mail.kick();
        return {
          ...r.summary,
          changed: r.outcome === 'changed',
          notifications: r.outcome === 'changed' ? r.notices : 0,
        } satisfies StatusChangeAnswer;
      },
    },
    // Correcting a decision (issue 38, docs/status.md "Correcting a decision"): a new history row
    // with the reason, the request's new status and its notifications (intake/correction.ts).
    'post /requests/{reference}/correction': {
      action: 'requests.correct',
      bodyLimit: 2048,
      target: referenceTarget,
      handler: async (req) => {
        const reference = referenceOf(req);
        const checked = checkCorrection(req.body);
        if (!checked.ok) throw invalid(checked.problems, 'The correction is not valid');
        const { status } = checked.correction;
        const r = await correctDecision(ctx.db, reference, checked.correction);
        if (r.outcome === 'none') throw requestNotFound();
        if (r.outcome === 'invalid') throw invalid(r.problems, 'The correction is not valid');
        note(
          req,
          reference,
          r.outcome === 'corrected' ? `${r.from}>${status} notices=${r.notices}` : `${r.outcome} ${status}`,
        );
        if (r.outcome === 'erased')
          throw new ApiError(
            410,
            'REQUEST_ERASED',
            "The request's personal data was erased (retention): a correction's reason is not stored",
          );
        if (r.outcome === 'notDecided')
          throw new ApiError(
            409,
            'NOT_DECIDED',
            `The request is ${r.summary.status}: only a decided request (issued, refused, withdrawn) is corrected`,
          );
        if (r.outcome === 'unchanged')
          throw new ApiError(
            409,
            'STATUS_TRANSITION',
            `The request is ${r.summary.status}: a correction must change its decision (issued: its certificate)`,
          );
        if (r.outcome === 'certificateMismatch')
          throw new ApiError(
            400,
            'CERTIFICATE_MISMATCH',
            "The certificate is not one of this request's person in the register",
            [{ path: 'certificate', message: CERTIFICATE_MISMATCH_MESSAGE }],
          );
        if (r.outcome === 'corrected') ctx.services.mail.kick();
        return {
          ...r.summary,
          changed: r.outcome === 'corrected',
          notifications: r.outcome === 'corrected' ? r.notices : 0,
        } satisfies CorrectionAnswer;
      },
    },
    'put /records/{id}': {
      action: 'records.put',
      bodyLimit: RECORD_BODY_LIMIT,
      target: (p) => idTarget('record', p.id, MAX_RECORD_ID),
      handler: async (req, reply) => {
        const id = pathId(req.params.id, MAX_RECORD_ID);
        if (id === null) throw invalid([{ path: 'id', message: 'must be a whole number from 1' }]);
        note(req, `record:${id}`);
        const r = await putRecord(ctx.db, id, req.body);
        if (!r.ok) throw invalid(r.problems, 'The certificate is not valid');
        note(req, `record:${id}`, r.created ? 'created' : 'updated');
        const rec = r.record;
        return reply.status(r.created ? 201 : 200).send(
          rec &&
            ({
              id: rec.id,
              person: { id: rec.person_id, first_name: rec.first_name, last_name: rec.last_name },
              stav: rec.stav,
              platnost_do: rec.platnost_do,
              a1a3: rec.a1a3_valid_until ? { valid_until: rec.a1a3_valid_until } : null,
              a2: rec.a2_valid_until ? { valid_until: rec.a2_valid_until } : null,
              revoked_at: rec.revoked_at,
            } satisfies RecordAnswer),
        );
      },
    },
    'put /persons/{id}': {
      action: 'persons.put',
      bodyLimit: PERSON_BODY_LIMIT,
      target: (p) => idTarget('person', p.id, MAX_PERSON_ID),
      handler: async (req, reply) => {
        const id = pathId(req.params.id, MAX_PERSON_ID);
        if (id === null)
          throw invalid([{ path: 'id', message: `must be a whole number from 1 to ${MAX_PERSON_ID}` }]);
        note(req, `person:${id}`);
        const r = await putPerson(ctx.db, id, req.body);
        if (!r.ok) {
          if (r.status === 409)
            throw new ApiError(
              409,
              'NIA_IDENTIFIER_TAKEN',
              'Another person has this NIA identifier',
              r.problems,
            );
          throw invalid(r.problems, 'The person is not valid');
        }
        note(req, `person:${id}`, r.created ? 'created' : 'updated');
        return reply.status(r.created ? 201 : 200).send({ id, created: r.created } satisfies PersonAnswer);
      },
    },
    'delete /persons/{id}': {
      action: 'persons.delete',
      target: (p) => idTarget('person', p.id, MAX_PERSON_ID),
      handler: async (req, reply) => {
        const id = pathId(req.params.id, MAX_PERSON_ID);
        if (id === null)
          throw invalid([{ path: 'id', message: `must be a whole number from 1 to ${MAX_PERSON_ID}` }]);
        note(req, `person:${id}`);
        if (!(await deletePerson(ctx.db, id)))
          throw new ApiError(404, 'PERSON_NOT_FOUND', 'No person has this id');
        return reply.status(204).send();
      },
    },
  };

  for (const { call, route } of routesOf(INTAKE_API_CALLS, handlers)) {
    app.route({
      method: call.method.toUpperCase() as Uppercase<IntakeCall['method']>,
      url: routePath(call.path),
      ...guarded(call.scopes, route.action, route.bodyLimit, route.target),
      handler: route.handler as RouteHandlerMethod,
    });
  }

  app.all('/*', { config: { rateLimit } }, async () => {
    throw new ApiError(404, 'NOT_FOUND', 'Not found');
  });
};

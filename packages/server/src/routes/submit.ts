import {
  applicantEmail,
  FORM_BODY_LIMITS,
  formatAccessCode,
  MATCH_TOKEN_MAX_LENGTH,
  SUBMIT_ERROR_CODES,
  type SubmitAnswer,
} from '@ros/domain';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { bareHostname } from '../botcheck/index.js';
import { ApiError } from '../errors.js';
import { clearSessionCookie, ensureCookies, sessionCookie } from '../http/cookies.js';
import { niaAnswerText } from '../mail/confirmation.js';
import { hasQueuedMail } from '../mail/table.js';
import { checkNiaIdentity } from '../nia/match.js';
import { endSession, findActive } from '../nia/sessions.js';
import { fill, PDF_LABELS } from '../pdf/labels.js';
import { useBoundedJson } from '../requests/jsonBody.js';
import { lookUpMatch } from '../requests/matchToken.js';
import { provePerson, unprovedSearch } from '../requests/person.js';
import { bodyHash, findByIdempotencyKey, findRequest, type StoredRequest } from '../requests/repository.js';
import { MatchSpentError, storeRequestWithMail } from '../requests/store.js';
import { checkSubmission } from '../requests/submission.js';
import type { ServerContext } from '../services.js';

/** Idempotency-Key: 1-200 visible ASCII characters (a UUID in practice). */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

/** `accessCode`: the status page's code (docs/status.md), as printed ('ABCD-EFGH-JKLM'). */
export function answerFor(r: StoredRequest, email = false, accessCode?: string): SubmitAnswer {
  const code = accessCode ? { access_code: accessCode } : {};
  if (email) return { text: niaAnswerText(r), id: r.id, reference: r.reference, email: true, ...code };
  return {
    text: fill(PDF_LABELS[r.language].confirmation, { reference: r.reference }),
    id: r.id,
    reference: r.reference,
    ...code,
  };
}

function header(req: FastifyRequest, name: string): string | undefined {
  const h = req.headers[name];
  return Array.isArray(h) ? h[0] : h;
}

/**
 * The body's key that is neither a form value nor the dialog's: `match` (a string of at most
 * MATCH_TOKEN_MAX_LENGTH), as the contract says; anything else is refused before it is looked at
 * (400 INVALID_FORM at that key), never read as "absent".
 */
function checkEnvelopeExtras(body: unknown): void {
  if (body === null || typeof body !== 'object') return; // checkSubmission answers that
  const { match } = body as { match?: unknown };
  const fields: Array<{ path: string; message: string }> = [];
  if (match !== undefined && (typeof match !== 'string' || match.length > MATCH_TOKEN_MAX_LENGTH))
    fields.push({ path: 'match', message: 'pattern' });
  if (fields.length > 0)
    throw new ApiError(400, SUBMIT_ERROR_CODES.invalidForm, 'The request form is not valid', fields);
}

const keyReused = () =>
  new ApiError(
    422,
    SUBMIT_ERROR_CODES.keyReused,
    'This Idempotency-Key was used for a different request body',
  );

/**
 * POST /api/ros (spec section 7; docs/requirements.md, product decisions, "Submit and the PDF").
 * In order:
 * 1. the body's size, nesting and value count (before it is parsed, requests/jsonBody.ts), then
 *    the form's rules under a context the server works out (the register person only when the
 *    body's `match` token or the NIA session proves it, requests/person.ts; a token's person
 *    must be the one the request names, else 400 MATCH_MISMATCH), and its codes
 *    against the reference data (400, nothing stored, the bot token not used up: a retry with
 *    the same Idempotency-Key must be answered before a token is asked for, and every check
 *    here is bounded by the body's limits);
 * 2. a known Idempotency-Key answers the first request's answer (same body) or 422 (another
 *    body), without a new bot token: a retry may resend the token it already spent;
 * 3. the channel is the one whose declarations the dialog showed (`legal_channel`): `nia` without
 *    a complete NIA session is refused (401 SESSION_EXPIRED, unless its Idempotency-Key names a
 *    stored request: the browser asks whether to sign in again or go on paper); `paper` goes on
 *    paper whatever the cookie; with `nia` and a complete session (cookie), the names and birth
 *    date must be the signed-in person's (400 NIA_IDENTITY_MISMATCH, nia/match.ts);
 * 4. the bot-check token in the `Recaptcha` header (action SubmitFormAction, 403);
 * 5. the request is stored once (see storeRequest), spending the match token that linked it (a
 *    token links one request: one spent by another request proves nothing, and the request is
 *    stored as a new applicant's), and `{ text, id }` answered: 201 when
 *    stored now, 200 when it was stored before: a retry with the same Idempotency-Key, or a retry
 *    without one that carries the match token its first send spent (`storedTwin`; equal values
 *    alone are never a retry: issue 33).
 *    A NIA request also queues its confirmation e-mail in the same transaction (answer
 *    `email: true`, sent in the background by mail/queue.ts) and ends the NIA session.
 */
export const submitRoutes: FastifyPluginAsync<ServerContext> = async (app, ctx) => {
  const { botCheck, mail: mails } = ctx.services;
  await ensureCookies(app);
  // The body's size, nesting and value count are checked before it is parsed (issue 11).
  useBoundedJson(app, FORM_BODY_LIMITS);
  const codeOf = async (r: StoredRequest) => formatAccessCode(await ctx.services.accessCodes.codeFor(r.id));
  const earlierAnswer = async (r: StoredRequest) =>
    answerFor(r, r.viaNia && (await hasQueuedMail(ctx.db.kysely, r.id)), await codeOf(r));
  /**
   * The request of this channel that spent this body's match token (a search's or the NIA
   * session's own: a secret of the browser that sent it), when the body is that request's: a
   * retry without its Idempotency-Key, or one of several concurrent sends, whose answer is the
   * first one's. Never found through the values alone (issue 33): anyone who can run the search
   * can build the same form.
   */
  const storedTwin = async (
    body: unknown,
    now: Date,
    viaNia: boolean,
  ): Promise<StoredRequest | undefined> => {
    const match = await lookUpMatch(ctx.db, (body as { match?: unknown } | null)?.match, now);
    const earlier = match?.spentBy ? await findRequest(ctx.db.kysely, match.spentBy.requestId) : undefined;
    if (!match || !earlier || earlier.viaNia !== viaNia) return undefined;
    try {
      const proof = { personId: match.personId, matchHash: null, searched: true };
      const a = await checkSubmission(ctx.db, body, now, proof);
      const hash = bodyHash({ language: a.language, duplicate: a.duplicate, values: a.values });
      return hash === earlier.bodyHash ? earlier : undefined;
    } catch {
      return undefined; // not that request's body
    }
  };
  app.post(
    '/',
    {
      bodyLimit: FORM_BODY_LIMITS.maxBytes,
      config: { rateLimit: { max: ctx.config.rateLimitSearchPerMinute, timeWindow: '1 minute' } },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      const key = header(req, 'idempotency-key')?.trim();
      if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
        throw new ApiError(
          400,
          SUBMIT_ERROR_CODES.keyInvalid,
          'Idempotency-Key must be 1-200 visible ASCII characters',
        );
      }
      checkEnvelopeExtras(req.body);
      const now = new Date();
      // An incomplete NIA identity cannot vouch for a request: it is sent as without sign-in.
      const cookie = sessionCookie(req);
      const session = cookie ? await findActive(ctx.db, cookie, now) : undefined;
      // The channel whose declarations the dialog showed (`legal_channel`, issues 22 and 27) is
      // the request's: never changed without the person's choice. `paper` goes on paper whatever
      // the cookie; `nia` needs the complete sign-in it was shown for.
      const claimsNia = (req.body as { legal_channel?: unknown } | null)?.legal_channel === 'nia';
      const identity = claimsNia ? session : undefined;
      const viaNia = identity?.complete === true;
      if (claimsNia && !viaNia && !(key && (await findByIdempotencyKey(ctx.db.kysely, key)))) {
        // A retry without a key whose first answer was lost (that send ended the session) gets
        // the stored request's answer; otherwise the browser asks whether to sign in again or go
        // on paper. A retry with its key is answered below.
        const twin = await storedTwin(req.body, now, true);
        if (twin) return reply.status(200).send(await earlierAnswer(twin));
        throw new ApiError(401, SUBMIT_ERROR_CODES.sessionExpired, 'The NIA sign-in session has ended');
      }
      const raw = req.body as { match?: unknown } | null;
      const proof = await provePerson(
        ctx.db,
        { nia: viaNia ? identity : undefined, match: raw?.match, idempotencyKey: key || null },
        now,
      );
      let accepted = await checkSubmission(ctx.db, req.body, now, proof);
      const hashOf = (a: typeof accepted) =>
        bodyHash({ language: a.language, duplicate: a.duplicate, values: a.values });
      const hash = hashOf(accepted);

      if (key) {
        const earlier = await findByIdempotencyKey(ctx.db.kysely, key);
        if (earlier) {
          if (earlier.bodyHash !== hash) throw keyReused();
          return reply.status(200).send(await earlierAnswer(earlier));
        }
      } else if (accepted.proof.searched && accepted.proof.matchHash === null) {
        // Without a key, a retry proves it is the same sender only by the token its send spent.
        const twin = await storedTwin(req.body, now, viaNia);
        if (twin) return reply.status(200).send(await earlierAnswer(twin));
      }
      if (identity && viaNia) checkNiaIdentity(identity, accepted.values, accepted.duplicate);
      await botCheck.verify(header(req, 'recaptcha'), 'SubmitFormAction', bareHostname(req.host));
      const mail = viaNia && applicantEmail(accepted.values) !== '';

      const store = (a: typeof accepted) =>
        storeRequestWithMail(
          ctx.db,
          {
            language: a.language,
            duplicate: a.duplicate,
            viaNia,
            mail,
            niaIdentifier: viaNia ? identity?.person_identifier : null,
            values: a.values,
            personKey: a.person.key,
            idempotencyKey: key || null,
            bodyHash: hashOf(a),
            spendMatch: a.proof.matchHash,
            legal: a.legal,
          },
          now,
        );
      let result: Awaited<ReturnType<typeof store>>;
      try {
        result = await store(accepted);
      } catch (err) {
        if (!(err instanceof MatchSpentError)) throw err;
        // Another request spent the token meanwhile: a concurrent send of this body gets its
        // answer (the token is this browser's secret); else this one is stored as if it carried none.
        const twin = key ? undefined : await storedTwin(req.body, now, viaNia);
        if (twin) return reply.status(200).send(await earlierAnswer(twin));
        // A NIA request keeps its person: only the session's token, which it spends besides, is dropped.
        accepted = await checkSubmission(
          ctx.db,
          req.body,
          now,
          viaNia ? { ...proof, matchHash: null } : unprovedSearch,
        );
        result = await store(accepted);
      }
      if ('conflict' in result) throw keyReused();
      if (result.created) {
        req.log.info({ request: result.request.reference, nia: viaNia }, 'request received');
        ctx.services.metrics?.submissions.inc({ channel: viaNia ? 'nia' : 'pdf' });
      }
      if (viaNia) {
        // The sign-in was for this one request.
        await endSession(ctx.db, cookie);
        clearSessionCookie(reply, ctx.config.publicUrl);
      }
      if (result.created && mail) mails.kick();
      const answer = result.created
        ? answerFor(result.request, mail, await codeOf(result.request))
        : await earlierAnswer(result.request);
      return reply.status(result.created ? 201 : 200).send(answer);
    },
  );
};

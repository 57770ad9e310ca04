import { FORM_BODY_LIMITS, SUBMIT_ERROR_CODES, type SubmitAnswer } from '@ros/domain';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { bareHostname } from '../botcheck/index.js';
import type { ServerContext } from '../context.js';
import { ApiError } from '../errors.js';
import { clearSessionCookie, ensureCookies, sessionCookie } from '../http/cookies.js';
import { niaAnswerText } from '../mail/confirmation.js';
import { hasQueuedMail } from '../mail/table.js';
import { checkNiaIdentity } from '../nia/match.js';
import { endSession, findActive } from '../nia/sessions.js';
import { fill, PDF_LABELS } from '../pdf/labels.js';
import { useBoundedJson } from '../requests/jsonBody.js';
import { bodyHash, findByIdempotencyKey, type StoredRequest } from '../requests/repository.js';
import { storeRequestWithMail } from '../requests/store.js';
import { checkSubmission } from '../requests/submission.js';

/** Idempotency-Key: 1-200 visible ASCII characters (a UUID in practice). */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

export function answerFor(r: StoredRequest, email = false): SubmitAnswer {
  if (email) return { text: niaAnswerText(r), id: r.id, reference: r.reference, email: true };
  return {
    text: fill(PDF_LABELS[r.language].confirmation, { reference: r.reference }),
    id: r.id,
    reference: r.reference,
  };
}

function header(req: FastifyRequest, name: string): string | undefined {
  const h = req.headers[name];
  return Array.isArray(h) ? h[0] : h;
}

const keyReused = () =>
  new ApiError(
    422,
    SUBMIT_ERROR_CODES.keyReused,
    'This Idempotency-Key was used for a different request body',
  );

/**
 * POST /api/ros (spec section 7, PRODUCT.md "Submit and the PDF"). In order:
 * 1. the body's size, nesting and value count (before it is parsed, requests/jsonBody.ts), then
 *    the form's rules under a context the server works out (the register person only when the
 *    body's `match` token or the NIA session proves it, requests/person.ts), and its codes
 *    against the reference data (400, nothing stored, the bot token not used up: a retry with
 *    the same Idempotency-Key must be answered before a token is asked for, and every check
 *    here is bounded by the body's limits);
 * 2. a known Idempotency-Key answers the first request's answer (same body) or 422 (another
 *    body), without a new bot token: a retry may resend the token it already spent;
 * 3. with a complete NIA session (cookie), the names and birth date must be the signed-in
 *    person's (400 NIA_IDENTITY_MISMATCH, nia/match.ts); the request then counts as sent through NIA;
 * 4. the bot-check token in the `Recaptcha` header (action SubmitFormAction, 403);
 * 5. the request is stored once (see storeRequest) and `{ text, id }` answered: 201 when
 *    stored now, 200 when it was stored before (a retry or an identical body within minutes).
 *    A NIA request also queues its confirmation e-mail in the same transaction (answer
 *    `email: true`, sent in the background by mail/queue.ts) and ends the NIA session.
 */
export const submitRoutes: FastifyPluginAsync<ServerContext> = async (app, ctx) => {
  const { botCheck, mail: mails } = ctx.services;
  await ensureCookies(app);
  // The body's size, nesting and value count are checked before it is parsed (issue 11).
  useBoundedJson(app, FORM_BODY_LIMITS);
  const earlierAnswer = async (r: StoredRequest) =>
    answerFor(r, r.viaNia && (await hasQueuedMail(ctx.db.kysely, r.id)));
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
      const now = new Date();
      // An incomplete NIA identity cannot vouch for a request: it is sent as without sign-in.
      const cookie = sessionCookie(req);
      const identity = cookie ? await findActive(ctx.db, cookie, now) : undefined;
      const viaNia = identity?.complete === true;
      const accepted = await checkSubmission(ctx.db, req.body, now, { nia: viaNia ? identity : undefined });
      const hash = bodyHash({
        language: accepted.language,
        duplicate: accepted.duplicate,
        values: accepted.values,
      });

      if (key) {
        const earlier = await findByIdempotencyKey(ctx.db.kysely, key);
        if (earlier) {
          if (earlier.bodyHash !== hash) throw keyReused();
          return reply.status(200).send(await earlierAnswer(earlier));
        }
      }
      if (identity && viaNia) checkNiaIdentity(identity, accepted.values, accepted.duplicate);
      await botCheck.verify(header(req, 'recaptcha'), 'SubmitFormAction', bareHostname(req.host));
      const mail = viaNia && accepted.values.email.trim() !== '';

      const result = await storeRequestWithMail(
        ctx.db,
        {
          language: accepted.language,
          duplicate: accepted.duplicate,
          viaNia,
          mail,
          niaIdentifier: viaNia ? identity?.person_identifier : null,
          values: accepted.values,
          personKey: accepted.person.key,
          idempotencyKey: key || null,
          bodyHash: hash,
        },
        now,
      );
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
      const answer = result.created ? answerFor(result.request, mail) : await earlierAnswer(result.request);
      return reply.status(result.created ? 201 : 200).send(answer);
    },
  );
};

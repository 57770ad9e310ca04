import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { type BotCheck, bareHostname, botCheckFor } from '../botcheck/index.js';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors.js';
import { fill, PDF_LABELS } from '../pdf/labels.js';
import { bodyHash, findByIdempotencyKey, type StoredRequest, storeRequest } from '../requests/repository.js';
import { checkSubmission } from '../requests/submission.js';

/** The whole form stays far below this (6 stays abroad of 3993 characters, 100 activities). */
const SUBMIT_BODY_LIMIT = 512 * 1024;

/** Idempotency-Key: 1-200 visible ASCII characters (a UUID in practice). */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

export const SUBMIT_CODES = {
  keyReused: 'IDEMPOTENCY_KEY_REUSED',
  keyInvalid: 'INVALID_IDEMPOTENCY_KEY',
} as const;

export interface SubmitAnswer {
  /** A short confirmation with the reference number, in the request's language. */
  text: string;
  /** The request's unguessable id: GET /api/ros/pdf/{id}. */
  id: string;
  reference: string;
}

export function answerFor(r: StoredRequest): SubmitAnswer {
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
  new ApiError(422, SUBMIT_CODES.keyReused, 'This Idempotency-Key was used for a different request body');

/**
 * POST /api/ros (spec section 7, PRODUCT.md "Submit and the PDF"). In order:
 * 1. the body is checked with the form's rules under a context the server works out, and its
 *    codes against the reference data (400, nothing stored, the bot token not used up);
 * 2. a known Idempotency-Key answers the first request's answer (same body) or 422 (another
 *    body), without a new bot token: a retry may resend the token it already spent;
 * 3. the bot-check token in the `Recaptcha` header (action SubmitFormAction, 403);
 * 4. the request is stored once (see storeRequest) and `{ text, id }` answered: 201 when
 *    stored now, 200 when it was stored before (a retry or an identical body within minutes).
 */
export const submitRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const botCheck: BotCheck = botCheckFor(ctx as AppContext & { botCheck?: BotCheck });
  app.post(
    '/',
    {
      bodyLimit: SUBMIT_BODY_LIMIT,
      config: { rateLimit: { max: ctx.config.rateLimitSearchPerMinute, timeWindow: '1 minute' } },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      const key = header(req, 'idempotency-key')?.trim();
      if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
        throw new ApiError(
          400,
          SUBMIT_CODES.keyInvalid,
          'Idempotency-Key must be 1-200 visible ASCII characters',
        );
      }
      const now = new Date();
      const accepted = await checkSubmission(ctx.db, req.body, now);
      const hash = bodyHash({
        language: accepted.language,
        duplicate: accepted.duplicate,
        values: accepted.values,
      });

      if (key) {
        const earlier = await findByIdempotencyKey(ctx.db.kysely, key);
        if (earlier) {
          if (earlier.bodyHash !== hash) throw keyReused();
          return reply.status(200).send(answerFor(earlier));
        }
      }
      await botCheck.verify(header(req, 'recaptcha'), 'SubmitFormAction', bareHostname(req.host));

      const result = await storeRequest(
        ctx.db,
        {
          language: accepted.language,
          duplicate: accepted.duplicate,
          viaNia: false,
          values: accepted.values,
          personKey: accepted.person.key,
          idempotencyKey: key || null,
          bodyHash: hash,
        },
        now,
      );
      if ('conflict' in result) throw keyReused();
      if (result.created) req.log.info({ request: result.request.reference }, 'request received');
      return reply.status(result.created ? 201 : 200).send(answerFor(result.request));
    },
  );
};

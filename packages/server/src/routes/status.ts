import { currentCertificate, isRequestStatus, type StatusAnswer, statusBodySchema } from '@ros/domain';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { clientKey } from '../http/ipRanges.js';
import { statusHistory } from '../intake/status.js';
import { useBoundedJson } from '../requests/jsonBody.js';
import { parseReference } from '../requests/repository.js';
import type { ServerContext } from '../services.js';

/** Small: a reference and a code. */
const LIMITS = { maxBytes: 256, maxDepth: 1, maxValues: 3 };

/** The one answer for an unknown reference and for a wrong code. */
const notFound = () => new ApiError(404, 'STATUS_NOT_FOUND', 'No request has this reference and access code');

/**
 * POST /api/ros/status (docs/status.md): where a request is, for whoever holds its reference and
 * access code (printed on the PDF, shown on the success screen, in the e-mail). No personal
 * data: statuses, dates, the authority's note (a correction's reason: issue 38), the current
 * decision's certificate's validity-check id.
 *
 * An unknown reference and a wrong code get the same answer, built the same way: the request is
 * looked up by its reference (one query either way), the code is made and compared in constant
 * time (for a stand-in when there is no request), and only a match reads more. Every look-up,
 * found or not, counts towards the per-address limit (ROS_RATE_LIMIT_STATUS, like the validity
 * check's). It works after the retention purge: the id, the status and the dates stay.
 */
export const statusRoutes: FastifyPluginAsync<ServerContext> = async (app, ctx) => {
  const { accessCodes, statusLimiter } = ctx.services;
  useBoundedJson(app, LIMITS);
  // The per-address count is checked before the body is read: a refused look-up (429) costs no
  // parsing (bench/flood.mjs, the status row).
  const limited = (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    reply.header('Cache-Control', 'no-store');
    try {
      statusLimiter.hit(clientKey(req.ip, ctx.config.rateLimitIpv6Prefix));
      done();
    } catch (err) {
      done(err as Error);
    }
  };
  app.post(
    '/status',
    { bodyLimit: LIMITS.maxBytes, onRequest: limited },
    async (req): Promise<StatusAnswer> => {
      const parsed = statusBodySchema.safeParse(req.body);
      if (!parsed.success) throw new ApiError(400, 'INVALID_REQUEST', 'The request body is not valid');
      const reference = parseReference(parsed.data.reference);
      const row = await ctx.db.kysely
        .selectFrom('requests')
        .select(['id', 'reference', 'status', 'via_nia', 'created_at'])
        .where('reference', '=', reference ?? '')
        .executeTakeFirst();
      if (!(await accessCodes.matches(row?.id ?? null, parsed.data.code)) || !row) throw notFound();
      const history = await statusHistory(ctx.db, row.id);
      const status = isRequestStatus(row.status) ? row.status : 'new';
      return {
        reference: row.reference,
        status,
        channel: Number(row.via_nia) === 1 ? 'nia' : 'pdf',
        submitted_at: row.created_at,
        events: history.map((h) => ({ status: h.status, at: h.at, note: h.note, correction: h.correction })),
        // The current decision's (issue 38: the last row's outcome, also after a correction).
        certificate: status === 'issued' ? currentCertificate(history) : null,
      };
    },
  );
};

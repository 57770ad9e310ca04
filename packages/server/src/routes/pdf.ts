import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '../errors.js';
import { isErased } from '../intake/requests.js';
import { pdfSources, renderForAnswer, requestPdfModel } from '../pdf/requestPdf.js';
import { findRequest, REQUEST_ID_PATTERN } from '../requests/repository.js';
import { requestRules } from '../requests/validate.js';
import type { ServerContext } from '../services.js';

/** One answer for unknown, malformed and expired ids, so that ids cannot be probed. */
const notFound = () => new ApiError(404, 'REQUEST_NOT_FOUND', 'No such request, or its link has expired');

/**
 * GET /api/ros/pdf/{id} (spec section 7): the request as a PDF in its language, made on
 * demand from the stored request by the app's worker-thread pool (the event loop only reads the
 * database and sends bytes). The link works for ROS_PDF_LINK_DAYS days after submission.
 */
export const pdfRoutes: FastifyPluginAsync<ServerContext> = async (app, ctx) => {
  const rules = requestRules(ctx.config);
  // The app's one PDF pool (services.ts), shared with the intake API and the mail queue.
  const pool = ctx.services.pdf;

  app.get<{ Params: { id: string } }>(
    '/pdf/:id',
    {
      config: {
        rateLimit: { max: Math.max(30, ctx.config.rateLimitValidityPerMinute), timeWindow: '1 minute' },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      const id = req.params.id;
      if (!REQUEST_ID_PATTERN.test(id)) throw notFound();
      const request = await findRequest(ctx.db.kysely, id);
      if (!request) throw notFound();
      const expires = new Date(request.createdAt).getTime() + rules.pdfLinkDays * 86_400_000;
      if (!(expires > Date.now())) throw notFound();
      // Its personal data erased (retention, docs/intake.md): nothing to print any more.
      if (await isErased(ctx.db, id)) throw notFound();

      const pdf = await renderForAnswer(
        (m) => pool.render(m),
        await requestPdfModel(pdfSources(ctx), request),
      );
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', `attachment; filename="${request.reference}.pdf"`)
        .header('X-Robots-Tag', 'noindex')
        .send(pdf);
    },
  );
};

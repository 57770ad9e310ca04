import { parseReference } from '@ros/domain';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { findByReference } from '../../intake/requests.js';
import { pdfSources, renderForAnswer, requestPdfModel } from '../../pdf/requestPdf.js';
import type { ServerContext } from '../../services.js';
import { certificatesOfRequest } from '../certificates.js';
import type { FieldError } from '../pages/Layout.js';
import { RequestPage } from '../pages/RequestPage.js';
import type { RequestPageData } from '../pages/requestPageProps.js';
import { requestView } from '../requestView.js';
import { CONSOLE_PATH, type Staff } from '../staff.js';
import { auditConsole, type ConsoleDeps, frameOf, gate, sendMessage, sendPage } from './common.js';

/** The reference of the path, or null (the same answer for malformed and unknown: 404). */
export const referenceOf = (params: unknown): string | null => {
  const r = (params as { reference?: unknown }).reference;
  return typeof r === 'string' && r.length <= 40 ? parseReference(r) : null;
};

/** Everything the request page shows, or null when there is no such request. */
export async function loadRequestPage(deps: ConsoleDeps, reference: string): Promise<RequestPageData | null> {
  const view = await requestView(deps.db, reference);
  if (!view) return null;
  const certificates = view.erased ? [] : await certificatesOfRequest(deps.db, reference);
  return { ...view, certificates };
}

/** The request page again, with the errors of a form it holds (400) or its finished action's message. */
export async function showRequest(
  deps: ConsoleDeps,
  reply: FastifyReply,
  staff: Staff,
  reference: string,
  options: {
    status?: number;
    done?: string | null;
    form?: { action: 'status' | 'issue' | 'correct'; errors: FieldError[]; values: Record<string, string> };
  } = {},
): Promise<FastifyReply> {
  const request = await loadRequestPage(deps, reference);
  if (!request) return sendMessage(reply, deps, staff, 'notFound');
  return sendPage(
    reply,
    options.status ?? 200,
    RequestPage({
      frame: frameOf(deps, staff, 'queue'),
      request,
      done: options.done ?? null,
      form: options.form,
    }),
  );
}

const DONE = new Set(['received', 'status', 'issued', 'corrected', 'resent', 'already']);

/** GET /urad/zadost/{reference}: the request as a person reads it; …/pdf: its PDF, inline. */
export function requestRoutes(app: FastifyInstance, deps: ConsoleDeps, ctx: ServerContext): void {
  app.get(`${CONSOLE_PATH}/zadost/:reference`, async (req, reply) => {
    const staff = await gate(deps, req, reply, 'look');
    if (!staff) return reply;
    const reference = referenceOf(req.params);
    if (!reference) return sendMessage(reply, deps, staff, 'notFound');
    const request = await loadRequestPage(deps, reference);
    await auditConsole(
      deps,
      staff,
      'view',
      reference,
      request ? (request.erased ? 'gone' : 'ok') : 'not_found',
    );
    if (!request) return sendMessage(reply, deps, staff, 'notFound');
    const done = (req.query as { hotovo?: unknown }).hotovo;
    return sendPage(
      reply,
      200,
      RequestPage({
        frame: frameOf(deps, staff, 'queue'),
        request,
        done: typeof done === 'string' && DONE.has(done) ? done : null,
      }),
    );
  });

  app.get(`${CONSOLE_PATH}/zadost/:reference/pdf`, async (req, reply) => {
    const staff = await gate(deps, req, reply, 'look');
    if (!staff) return reply;
    const reference = referenceOf(req.params);
    const found = reference ? await findByReference(deps.db, reference) : { kind: 'none' as const };
    await auditConsole(
      deps,
      staff,
      'pdf',
      reference,
      found.kind === 'found' ? 'ok' : found.kind === 'erased' ? 'gone' : 'not_found',
    );
    if (found.kind !== 'found') return sendMessage(reply, deps, staff, 'notFound');
    const pdf = await renderForAnswer(
      (m) => ctx.services.pdf.render(m),
      await requestPdfModel(pdfSources(ctx), found.request),
    );
    return reply
      .headers({
        'content-type': 'application/pdf',
        'content-disposition': `inline; filename="${found.request.reference}.pdf"`,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        // Shown in the request page's frame (same origin), nowhere else.
        'content-security-policy': "default-src 'none'; frame-ancestors 'self'",
        'x-frame-options': 'SAMEORIGIN',
        'x-robots-tag': 'noindex',
      })
      .send(pdf);
  });
}

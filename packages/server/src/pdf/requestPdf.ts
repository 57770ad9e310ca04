import { type Catalogue, FIELDS } from '@ros/domain';
import type { Db } from '../db/database.js';
import { ApiError } from '../errors.js';
import { receivedAtOf } from '../intake/requests.js';
import { type AccessCodes, statusOf } from '../notifications/accessCode.js';
import type { StoredRequest } from '../requests/repository.js';
import { type CatalogueLabels, PDF_LABELS, type PdfLanguage } from './labels.js';
import { buildPdfModel, loadCodeNames, type PdfModel } from './model.js';
import { PdfBusyError } from './pool.js';

/** What the PDF of a stored request is made from besides the request. */
export interface RequestPdfSources {
  db: Db;
  accessCodes: AccessCodes;
  publicUrl: string;
}

/** The sources from the server's context (services.accessCodes). */
export const pdfSources = (ctx: {
  db: Db;
  config: { publicUrl: string };
  services: { accessCodes: AccessCodes };
}): RequestPdfSources => ({
  db: ctx.db,
  accessCodes: ctx.services.accessCodes,
  publicUrl: ctx.config.publicUrl,
});

/**
 * The model of a stored request's PDF, the same for every copy (the download, the intake API,
 * the confirmation e-mail, `ros-admin requests export --pdf`): the names of its codes, when the
 * authority marked it received (its state, docs/submit-and-pdf.md) and the status page's access
 * code and link (docs/status.md). `catalogue`: FIELDS, and `labels` PDF_LABELS; a test passes a
 * catalogue with a field more and the labels with its label (requests/catalogueField.test.ts).
 */
export async function requestPdfModel(
  sources: RequestPdfSources,
  request: StoredRequest,
  labels: Readonly<Record<PdfLanguage, CatalogueLabels>> = PDF_LABELS,
  catalogue: Catalogue = FIELDS,
): Promise<PdfModel> {
  const [names, receivedAt, status] = await Promise.all([
    loadCodeNames(sources.db, request.values, request.language, catalogue),
    receivedAtOf(sources.db, request.id),
    statusOf(sources.accessCodes, sources.publicUrl, request),
  ]);
  return buildPdfModel(request, names, undefined, receivedAt, status, labels, catalogue);
}

/**
 * Renders a PDF for an API answer: a pool with every worker busy is 503 PDF_BUSY with
 * Retry-After (docs/errors.md); other failures stay what they are.
 */
export async function renderForAnswer(
  render: (model: PdfModel) => Promise<Buffer>,
  model: PdfModel,
): Promise<Buffer> {
  try {
    return await render(model);
  } catch (err) {
    if (err instanceof PdfBusyError) {
      throw new ApiError(503, 'PDF_BUSY', err.message, undefined, { 'Retry-After': '5' });
    }
    throw err;
  }
}

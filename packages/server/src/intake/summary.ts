import { isRequestStatus } from '@ros/domain';
import type { z } from 'zod';
import type { RequestRow } from '../db/schema.js';
import type { requestSummarySchema } from './contract.js';

/**
 * One request as a list shows it: no personal data (its schema: intake/contract.ts). The columns
 * it is made of are listed once, for the list (intake/requests.ts) and a status change
 * (intake/status.ts).
 */
export type RequestSummary = z.infer<typeof requestSummarySchema>;

export const SUMMARY_COLUMNS = [
  'id',
  'reference',
  'status',
  'via_nia',
  'language',
  'duplicate',
  'created_at',
  'received_at',
  'erased_at',
] as const;

export type SummaryRow = Pick<RequestRow, (typeof SUMMARY_COLUMNS)[number]>;

export function toSummary(r: SummaryRow): RequestSummary {
  return {
    reference: r.reference,
    status: isRequestStatus(r.status) ? r.status : 'new',
    channel: Number(r.via_nia) === 1 ? 'nia' : 'pdf',
    language: r.language === 'en' ? 'en' : 'cs',
    duplicate: Number(r.duplicate) === 1,
    created_at: r.created_at,
    received_at: r.received_at,
  };
}

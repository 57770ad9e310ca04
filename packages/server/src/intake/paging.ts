import { parseIsoInstant } from '@ros/domain';
import { parseReference } from '../requests/repository.js';

/** Paging the intake API's list of requests (intake/requests.ts listRequests). */

/** The list's page size: default and most. */
export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 100;

/**
 * The cursor is the last item's (created_at, reference) in base64url JSON: opaque to clients,
 * stable while requests come in (keyset paging: a new request never shifts a page).
 */
export function encodeCursor(r: { created_at: string; reference: string }): string {
  return Buffer.from(JSON.stringify([r.created_at, r.reference])).toString('base64url');
}

export function decodeCursor(cursor: string): { created_at: string; reference: string } | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    // Exactly what encodeCursor writes (a stored time, a reference): anything else, such as a
    // NUL that PostgreSQL refuses in a query, is not one of ours.
    if (
      Array.isArray(v) &&
      v.length === 2 &&
      typeof v[0] === 'string' &&
      typeof v[1] === 'string' &&
      parseIsoInstant(v[0]) === v[0] &&
      parseReference(v[1]) === v[1]
    )
      return { created_at: v[0], reference: v[1] };
  } catch {
    // not JSON: not one of ours
  }
  return null;
}

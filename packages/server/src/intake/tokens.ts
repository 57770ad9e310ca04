import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';

/**
 * Intake API tokens (docs/intake.md): `ros-admin tokens create` prints a token once; the table
 * keeps its sha256 only, so a copy of the database cannot call the API. A revoked token keeps
 * its row (and its name) so that its calls in the audit trail stay attributable.
 */

export const SCOPES = [
  'requests:read',
  'requests:receive',
  'requests:status',
  'records:write',
  'persons:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/** 'ros_' and 256 random bits in base64url. */
export const TOKEN_PATTERN = /^ros_[A-Za-z0-9_-]{43}$/;
export const TOKEN_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** last_used_at is written at most this often per token, not on every call. */
const LAST_USE_RESOLUTION_MS = 60_000;

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface TokenInfo {
  name: string;
  scopes: Scope[];
  createdAt: string;
  createdBy: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** Scopes from 'a,b' or 'a b'; the unknown ones are returned apart. */
export function parseScopes(text: string): { scopes: Scope[]; unknown: string[] } {
  const words = text
    .split(/[\s,]+/)
    .map((w) => w.trim())
    .filter(Boolean);
  const scopes = [...new Set(words.filter((w): w is Scope => (SCOPES as readonly string[]).includes(w)))];
  return { scopes, unknown: words.filter((w) => !(SCOPES as readonly string[]).includes(w)) };
}

const toInfo = (r: {
  name: string;
  scopes: string;
  created_at: string;
  created_by: string;
  last_used_at: string | null;
  revoked_at: string | null;
}): TokenInfo => ({
  name: r.name,
  scopes: parseScopes(r.scopes).scopes,
  createdAt: r.created_at,
  createdBy: r.created_by,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

/** Creates a token; null when the name is taken (also by a revoked token). */
export async function createToken(
  db: Db,
  name: string,
  scopes: readonly Scope[],
  createdBy: string,
  now: Date = new Date(),
): Promise<string | null> {
  const token = `ros_${randomBytes(32).toString('base64url')}`;
  const result = await db.kysely
    .insertInto('intake_tokens')
    .values({
      name,
      token_hash: hashToken(token),
      scopes: scopes.join(' '),
      created_at: now.toISOString(),
      created_by: createdBy.slice(0, 100),
      last_used_at: null,
      revoked_at: null,
    })
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1 ? token : null;
}

export async function revokeToken(
  db: Db,
  name: string,
  now: Date = new Date(),
): Promise<'revoked' | 'already' | 'unknown'> {
  const r = await db.kysely
    .updateTable('intake_tokens')
    .set({ revoked_at: now.toISOString() })
    .where('name', '=', name)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 1) return 'revoked';
  const row = await db.kysely
    .selectFrom('intake_tokens')
    .select('name')
    .where('name', '=', name)
    .executeTakeFirst();
  return row ? 'already' : 'unknown';
}

export async function listTokens(db: Db): Promise<TokenInfo[]> {
  const rows = await db.kysely.selectFrom('intake_tokens').selectAll().orderBy('name').execute();
  return rows.map(toInfo);
}

/**
 * The token's name and scopes, or null for a malformed, unknown or revoked token. Notes the
 * time of use (at most once a minute per token).
 */
export async function authenticate(
  db: Db,
  token: string,
  now: Date = new Date(),
): Promise<{ name: string; scopes: Scope[] } | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const row = await db.kysely
    .selectFrom('intake_tokens')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row || row.revoked_at !== null) return null;
  const last = row.last_used_at ? Date.parse(row.last_used_at) : 0;
  if (now.getTime() - last >= LAST_USE_RESOLUTION_MS) {
    await db.kysely
      .updateTable('intake_tokens')
      .set({ last_used_at: now.toISOString() })
      .where('name', '=', row.name)
      .execute();
  }
  return { name: row.name, scopes: toInfo(row).scopes };
}

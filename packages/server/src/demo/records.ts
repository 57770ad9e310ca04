import { addDays } from '@ros/domain';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { registerToday } from '../records/records.js';

/**
 * The demo certificates, loaded at start when ROS_DEMO_DATA is on (the default), so that every
 * state of the validity-check page can be tried at once. Documented in docs/validity.md.
 *
 * The check links must stay the same for the docs, while the dates move with today so that the
 * valid ones stay valid. Both hold because the link's code is a sum (day + month + year): each
 * demo certificate has a fixed code, and its `platnost_do` is the first date at least a year ahead
 * (or, for the expired one, the last date at least a month back) whose day + month + year equals
 * that code. Seeding runs at every start and rewrites the demo rows to their documented state.
 *
 * Ids 990000001-990000005 are the demo's. Only rows the demo created (marked `demo = 1`,
 * migration 0006) are rewritten: a row with such an id that an operator loaded is left alone,
 * whatever its names. Demo data is off by default in production (config/config.ts).
 */

export type DemoRole = 'valid-a1a3-a2' | 'valid-a1a3' | 'valid' | 'expired' | 'revoked';

export interface DemoRecord {
  id: number;
  code: number;
  role: DemoRole;
  first_name: string;
  last_name: string;
  description: string;
}

export const DEMO_RECORDS: readonly DemoRecord[] = [
  {
    id: 990000001,
    code: 2070,
    role: 'valid-a1a3-a2',
    first_name: 'Jiřina',
    last_name: 'Dvořáková',
    description: 'valid, categories A1/A3 and A2',
  },
  {
    id: 990000002,
    code: 2069,
    role: 'valid-a1a3',
    first_name: 'Petr',
    last_name: 'Černý',
    description: 'valid, category A1/A3 only',
  },
  {
    id: 990000003,
    code: 2068,
    role: 'valid',
    first_name: 'Šárka',
    last_name: 'Horáková',
    description: 'valid, no categories',
  },
  {
    id: 990000004,
    code: 2040,
    role: 'expired',
    first_name: 'Tomáš',
    last_name: 'Svoboda',
    description: 'expired (not verified)',
  },
  {
    id: 990000005,
    code: 2067,
    role: 'revoked',
    first_name: 'Marie',
    last_name: 'Procházková',
    description: 'revoked (not verified)',
  },
];

interface Ymd {
  y: number;
  m: number;
  d: number;
}

function parseIso(iso: string): Ymd {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return { y, m, d };
}

function iso({ y, m, d }: Ymd): string {
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function daysIn(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** The first date on or after `from` whose day + month + year is `code`. */
export function firstDateWithCode(code: number, from: string): string {
  const start = parseIso(from);
  for (let y = start.y; code - y >= 2; y++) {
    for (let m = 1; m <= 12; m++) {
      const d = code - y - m;
      if (d < 1 || d > daysIn(y, m)) continue;
      const candidate = iso({ y, m, d });
      if (candidate >= from) return candidate;
    }
  }
  throw new Error(`no date on or after ${from} has the code ${code}`);
}

/** The last date on or before `to` whose day + month + year is `code`. */
export function lastDateWithCode(code: number, to: string): string {
  const end = parseIso(to);
  for (let y = end.y; y >= 1900; y--) {
    for (let m = 12; m >= 1; m--) {
      const d = code - y - m;
      if (d < 1 || d > daysIn(y, m)) continue;
      const candidate = iso({ y, m, d });
      if (candidate <= to) return candidate;
    }
  }
  throw new Error(`no date on or before ${to} has the code ${code}`);
}

export interface DemoRow {
  id: number;
  stav: 'Ano' | 'Ne';
  platnost_do: string;
  a1a3_valid_until: string | null;
  a2_valid_until: string | null;
  first_name: string;
  last_name: string;
  revoked: boolean;
}

/** The demo rows as of `today` ('YYYY-MM-DD'). */
export function demoRows(today: string): DemoRow[] {
  const yearAhead = addDays(today, 365);
  const monthBack = addDays(today, -30);
  return DEMO_RECORDS.map((r) => {
    const platnostDo =
      r.role === 'expired' ? lastDateWithCode(r.code, monthBack) : firstDateWithCode(r.code, yearAhead);
    return {
      id: r.id,
      stav: r.role === 'revoked' ? 'Ne' : 'Ano',
      platnost_do: platnostDo,
      a1a3_valid_until:
        r.role === 'valid-a1a3-a2' || r.role === 'valid-a1a3' || r.role === 'revoked' ? platnostDo : null,
      a2_valid_until: r.role === 'valid-a1a3-a2' ? platnostDo : null,
      first_name: r.first_name,
      last_name: r.last_name,
      revoked: r.role === 'revoked',
    };
  });
}

/** Loads or refreshes the demo certificates. Safe to run at every start. */
export async function seedDemoRecords(db: Db, now: Date = new Date()): Promise<void> {
  const createdAt = now.toISOString();
  const rows = demoRows(registerToday(now));
  await db.kysely.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('records')
      .select(['id', 'demo'])
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    // Rows with a demo id that the demo did not create: an operator's, never touched.
    const foreign = new Set(existing.filter((e) => Number(e.demo) !== 1).map((e) => Number(e.id)));
    for (const { revoked, ...row } of rows) {
      if (foreign.has(row.id)) continue;
      await trx
        .insertInto('records')
        .values({
          ...row,
          person_id: null,
          created_at: createdAt,
          revoked_at: revoked ? createdAt : null,
          demo: 1,
        })
        .onConflict((oc) =>
          oc
            .column('id')
            .doUpdateSet({
              stav: row.stav,
              platnost_do: row.platnost_do,
              a1a3_valid_until: row.a1a3_valid_until,
              a2_valid_until: row.a2_valid_until,
              // The revoked one keeps its first revocation time; the others are un-revoked.
              revoked_at: revoked ? sql<string>`coalesce(records.revoked_at, ${createdAt})` : null,
            })
            // Belt and braces: the update never reaches a row the demo did not make.
            .where('records.demo', '=', 1),
        )
        .execute();
    }
  });
}

/** The check links of the demo certificates (relative; prefix the site's address). */
export function demoCheckLinks(): Array<{ id: number; path: string; description: string }> {
  const links = DEMO_RECORDS.map((r) => ({
    id: r.id,
    path: `/check?id=${r.id}x${r.code}`,
    description: r.description,
  }));
  const first = DEMO_RECORDS[0] as DemoRecord;
  links.push({
    id: first.id,
    path: `/check?id=${first.id}x${first.code + 1}`,
    description: 'wrong code for a valid certificate (not verified)',
  });
  return links;
}

import { createHash } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { CsuData } from './csu.js';
import {
  type CodeListItem,
  type CodeListName,
  type Country,
  codeListDefinitions,
  countryList,
} from './lists.js';

/** Rows of `reference_imports`: one per source. */
export const SOURCE_CSU = 'csu';
export const SOURCE_CODE_LISTS = 'code_lists';
export const SOURCE_COUNTRIES = 'countries';

/** What `reference_imports.detail` holds for the ČSÚ codebook (JSON). */
export interface CsuImportDetail {
  /** folder: ROS_REFERENCE_DIR or --dir; download: ČSÚ's public export; builtin: the codebook in the repository. */
  kind: 'folder' | 'download' | 'builtin';
  /** The file or URL it came from. */
  origin: string;
  /** The built-in codebook's snapshot date ("spring 2024"). */
  snapshot?: string;
  sha256: string;
  districts: number;
  municipalities: number;
}

export interface ImportRow {
  source: string;
  imported_at: string;
  detail: string;
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export async function readImport(db: Kysely<Database>, source: string): Promise<ImportRow | undefined> {
  return db.selectFrom('reference_imports').selectAll().where('source', '=', source).executeTakeFirst();
}

export function csuDetail(row: ImportRow | undefined): CsuImportDetail | undefined {
  if (!row) return undefined;
  try {
    return JSON.parse(row.detail) as CsuImportDetail;
  } catch {
    return undefined;
  }
}

async function writeImport(trx: Transaction<Database>, source: string, detail: unknown): Promise<void> {
  const row = { source, imported_at: new Date().toISOString(), detail: JSON.stringify(detail) };
  await trx
    .insertInto('reference_imports')
    .values(row)
    .onConflict((oc) => oc.column('source').doUpdateSet({ imported_at: row.imported_at, detail: row.detail }))
    .execute();
}

/**
 * Several app processes may start at once against one PostgreSQL: the replacing
 * transactions take a lock so that they run one after another.
 */
async function lockReference(trx: Transaction<Database>, db: Db): Promise<void> {
  if (db.dialect === 'postgres') await sql`select pg_advisory_xact_lock(7412001)`.execute(trx);
}

/** Runs `insert` on slices of `rows`: one statement per 500 rows stays under every parameter limit. */
async function inBatches<R>(
  rows: readonly R[],
  insert: (batch: R[]) => Promise<unknown>,
  size = 500,
): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/**
 * Replaces districts and municipalities in one transaction. When `onlyIfChanged` and the
 * stored import already has this hash (another process got there first), nothing is done.
 */
export async function replaceCsuData(
  db: Db,
  data: CsuData,
  detail: CsuImportDetail,
  onlyIfChanged = false,
): Promise<boolean> {
  return db.kysely.transaction().execute(async (trx) => {
    await lockReference(trx, db);
    if (onlyIfChanged) {
      const current = csuDetail(await readImport(trx, SOURCE_CSU));
      if (current && current.sha256 === detail.sha256 && current.kind === detail.kind) return false;
    }
    await trx.deleteFrom('municipalities').execute();
    await trx.deleteFrom('districts').execute();
    await inBatches(data.districts, (b) => trx.insertInto('districts').values(b).execute());
    await inBatches(data.municipalities, (b) => trx.insertInto('municipalities').values(b).execute());
    await writeImport(trx, SOURCE_CSU, detail);
    return true;
  });
}

/** Seeds the fixed lists and the countries when their definition changed (a hash is kept). */
export async function seedStaticLists(db: Db): Promise<{ codeLists: boolean; countries: boolean }> {
  const lists = codeListDefinitions();
  const listsHash = sha256(JSON.stringify(lists));
  const countries = countryList();
  const countriesHash = sha256(JSON.stringify(countries));
  const [listsRow, countriesRow] = await Promise.all([
    readImport(db.kysely, SOURCE_CODE_LISTS),
    readImport(db.kysely, SOURCE_COUNTRIES),
  ]);
  const storedHash = (row: ImportRow | undefined) => {
    try {
      return row ? (JSON.parse(row.detail) as { sha256?: string }).sha256 : undefined;
    } catch {
      return undefined;
    }
  };
  const seedLists = storedHash(listsRow) !== listsHash;
  const seedCountries = storedHash(countriesRow) !== countriesHash;
  if (!seedLists && !seedCountries) return { codeLists: false, countries: false };

  await db.kysely.transaction().execute(async (trx) => {
    await lockReference(trx, db);
    if (seedLists) {
      await upsertCodeLists(trx, lists);
      await writeImport(trx, SOURCE_CODE_LISTS, {
        sha256: listsHash,
        items: Object.values(lists).reduce((n, l) => n + l.length, 0),
      });
    }
    if (seedCountries) {
      await replaceCountries(trx, countries);
      await writeImport(trx, SOURCE_COUNTRIES, { sha256: countriesHash, items: countries.length });
    }
  });
  return { codeLists: seedLists, countries: seedCountries };
}

/**
 * Idempotent upsert of every item; items no longer defined are removed. The definitions in
 * lists.ts are the source of truth: a changed definition is applied at the next start.
 */
async function upsertCodeLists(trx: Transaction<Database>, lists: Record<CodeListName, CodeListItem[]>) {
  for (const [list, items] of Object.entries(lists) as Array<[CodeListName, CodeListItem[]]>) {
    const codes = items.map((i) => i.code);
    await trx
      .deleteFrom('code_lists')
      .where('list', '=', list)
      .where('code', 'not in', codes.length ? codes : [''])
      .execute();
    for (const [sort, item] of items.entries()) {
      const row = {
        list,
        code: item.code,
        name_cz: item.name_cz,
        name_en: item.name_en,
        disabled: item.disabled ? 1 : 0,
        sort,
      };
      await trx
        .insertInto('code_lists')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['list', 'code']).doUpdateSet({
            name_cz: row.name_cz,
            name_en: row.name_en,
            disabled: row.disabled,
            sort: row.sort,
          }),
        )
        .execute();
    }
  }
}

async function replaceCountries(trx: Transaction<Database>, countries: Country[]): Promise<void> {
  await trx.deleteFrom('countries').execute();
  await inBatches(countries, (b) => trx.insertInto('countries').values(b).execute());
}

export async function countRows(db: Kysely<Database>, table: 'districts' | 'municipalities' | 'countries') {
  const r = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

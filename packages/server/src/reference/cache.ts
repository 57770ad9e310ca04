import type { Db } from '../db/database.js';
import { type EncodedBody, type Encoding, encodedBody } from '../http/encodedBody.js';
import { sortDistricts } from './csu.js';
import { CODE_LIST_NAMES, type CodeListName, sortCountries } from './lists.js';
import { sha256 } from './store.js';

/**
 * The reference lists as ready-to-send JSON strings with their strong ETags, built once
 * per data load (not per request). Every app keeps its own copy (one of its services,
 * services.ts), built on the first request; it is rebuilt after an import (ros-admin, another
 * instance, this process's start-up work) within `checkIntervalMs`, found by a change in
 * reference_imports, or at once after `invalidate()`.
 */
export type ListName = CodeListName | 'countries' | 'countries.en' | 'districts' | 'municipalities';

export interface ServedList extends EncodedBody {
  body: string;
  etag: string;
  count: number;
  /** The body in each encoding offered: made on the first call for each, then kept with the list (http/encodedBody.ts). */
  encoded(encoding: Encoding): Promise<Buffer>;
}

interface Cache {
  lists: Map<ListName, ServedList>;
  stamp: string;
  checkedAt: number;
}

export interface ReferenceLists {
  /** The list as served, loading or refreshing the copy when needed. */
  get(name: ListName): Promise<ServedList>;
  /** Drops the copy; the next request rebuilds it from the database. */
  invalidate(): void;
}

const CHECK_INTERVAL_MS = 30_000;

async function importStamp(db: Db): Promise<string> {
  const rows = await db.kysely
    .selectFrom('reference_imports')
    .select(['source', 'imported_at'])
    .orderBy('source')
    .execute();
  return rows.map((r) => `${r.source}@${r.imported_at}`).join('|');
}

function served(items: unknown[]): ServedList {
  const body = JSON.stringify(items);
  return { ...encodedBody(body), body, etag: `"${sha256(body).slice(0, 32)}"`, count: items.length };
}

async function build(db: Db): Promise<Cache> {
  const stamp = await importStamp(db);
  const [countries, districts, municipalities, codeRows] = await Promise.all([
    db.kysely.selectFrom('countries').select(['code', 'code_csu', 'name_cz', 'name_en']).execute(),
    db.kysely.selectFrom('districts').select(['code', 'name']).execute(),
    db.kysely.selectFrom('municipalities').select(['code', 'name', 'long_name', 'district']).execute(),
    db.kysely
      .selectFrom('code_lists')
      .select(['list', 'code', 'name_cz', 'name_en', 'disabled', 'sort'])
      .orderBy('list')
      .orderBy('sort')
      .orderBy('code')
      .execute(),
  ]);
  const lists = new Map<ListName, ServedList>();
  lists.set('countries', served(sortCountries(countries, 'cs')));
  lists.set('countries.en', served(sortCountries(countries, 'en')));
  lists.set('districts', served(sortDistricts(districts)));
  // Sorted in Czech order here, not in SQL: SQLite and PostgreSQL collate differently.
  const czech = new Intl.Collator('cs');
  lists.set(
    'municipalities',
    served(
      [...municipalities]
        .sort((a, b) => czech.compare(a.long_name, b.long_name) || a.code.localeCompare(b.code))
        .map((m) => ({ code: m.code, long_name: m.long_name, district: m.district, name: m.name })),
    ),
  );
  for (const name of CODE_LIST_NAMES) {
    const items = codeRows
      .filter((r) => r.list === name)
      .map((r) =>
        name === 'duplicate-types'
          ? { code: r.code, name_cz: r.name_cz, name_en: r.name_en, disabled: Number(r.disabled) !== 0 }
          : { code: r.code, name_cz: r.name_cz, name_en: r.name_en },
      );
    lists.set(name, served(items));
  }
  return { lists, stamp, checkedAt: Date.now() };
}

export function createReferenceLists(db: Db, checkIntervalMs = CHECK_INTERVAL_MS): ReferenceLists {
  let pending: Promise<Cache> | undefined;
  const invalidate = () => {
    pending = undefined;
  };
  const get = async (name: ListName): Promise<ServedList> => {
    if (!pending) {
      const loading = build(db);
      pending = loading;
      loading.catch(() => {
        if (pending === loading) pending = undefined;
      });
    }
    const cache = await pending;
    if (Date.now() - cache.checkedAt >= checkIntervalMs) {
      cache.checkedAt = Date.now();
      if ((await importStamp(db)) !== cache.stamp) {
        invalidate();
        return get(name);
      }
    }
    const list = cache.lists.get(name);
    if (!list) throw new Error(`unknown reference list ${name}`);
    return list;
  };
  return { get, invalidate };
}

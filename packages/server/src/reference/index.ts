import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { ServiceContext } from '../context.js';
import { parseBuiltin, readBuiltin } from './builtin.js';
import { CSU_LINK_FILE, parseCsuLinkFile, ReferenceImportError } from './csu.js';
import { decodeCodebook } from './csv.js';
import { CSU_CATALOGUE_URL, DOWNLOAD_TIMEOUT_MS, downloadCsuLinkFile } from './download.js';
import { CODE_LIST_NAMES } from './lists.js';
import {
  type CsuImportDetail,
  countRows,
  csuDetail,
  type ImportRow,
  readImport,
  replaceCsuData,
  SOURCE_CSU,
  seedStaticLists,
  sha256,
} from './store.js';

export { createReferenceLists, type ListName, type ReferenceLists } from './cache.js';
export { ReferenceImportError } from './csu.js';

export interface ImportResult {
  /** false when the same file was imported before and nothing had to be done. */
  changed: boolean;
  origin: string;
  sha256: string;
  districts: number;
  municipalities: number;
}

const BUILTIN_ORIGIN = 'the built-in codebook (packages/server/codebooks/csu-municipalities.tsv)';

/** The link file in `dir` (its name matched without regard to case), or `dir` itself when it is a file. */
async function locateLinkFile(dir: string): Promise<string> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(dir);
  } catch {
    throw new ReferenceImportError(`the reference folder ${dir} does not exist`);
  }
  if (info.isFile()) return dir;
  const names = await readdir(dir);
  const found = names.find((n) => n.toLowerCase() === CSU_LINK_FILE.toLowerCase());
  if (!found) throw new ReferenceImportError(`${dir} holds no ${CSU_LINK_FILE}`);
  return join(dir, found);
}

async function importBytes(
  ctx: ServiceContext,
  bytes: Uint8Array,
  kind: CsuImportDetail['kind'],
  origin: string,
  onlyIfChanged: boolean,
): Promise<ImportResult> {
  const hash = sha256(bytes);
  if (onlyIfChanged) {
    const current = csuDetail(await readImport(ctx.db.kysely, SOURCE_CSU));
    if (current && current.kind === kind && current.sha256 === hash) {
      return {
        changed: false,
        origin,
        sha256: hash,
        districts: current.districts,
        municipalities: current.municipalities,
      };
    }
  }
  const data = parseCsuLinkFile(decodeCodebook(bytes));
  const detail: CsuImportDetail = {
    kind,
    origin,
    sha256: hash,
    districts: data.districts.length,
    municipalities: data.municipalities.length,
  };
  const changed = await replaceCsuData(ctx.db, data, detail, onlyIfChanged);
  return {
    changed,
    origin,
    sha256: hash,
    districts: detail.districts,
    municipalities: detail.municipalities,
  };
}

/**
 * Imports ČSÚ's municipality → district link file from a folder (or the file itself).
 * A bad file throws ReferenceImportError (with the line) and leaves the stored data as it was.
 */
export async function importCsuFolder(
  ctx: ServiceContext,
  dir: string,
  opts: { onlyIfChanged?: boolean } = {},
): Promise<ImportResult> {
  const file = await locateLinkFile(dir);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (err) {
    throw new ReferenceImportError(`cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    return await importBytes(ctx, bytes, 'folder', file, opts.onlyIfChanged ?? false);
  } catch (err) {
    if (err instanceof ReferenceImportError) throw new ReferenceImportError(`${file}: ${err.message}`);
    throw err;
  }
}

/** Downloads the current codebook from ČSÚ and imports it (fails fast without internet). */
export async function importCsuDownload(
  ctx: ServiceContext,
  opts: { catalogueUrl?: string; timeoutMs?: number } = {},
): Promise<ImportResult> {
  const { bytes, url } = await downloadCsuLinkFile(
    opts.catalogueUrl ?? CSU_CATALOGUE_URL,
    opts.timeoutMs ?? DOWNLOAD_TIMEOUT_MS,
  );
  return importBytes(ctx, bytes, 'download', url, false);
}

/**
 * Loads the built-in codebook (packages/server/codebooks/) unless this very version is the one
 * stored; returns whether it wrote anything.
 */
export async function loadBuiltin(ctx: ServiceContext): Promise<boolean> {
  const builtin = readBuiltin();
  const current = csuDetail(await readImport(ctx.db.kysely, SOURCE_CSU));
  if (current?.kind === 'builtin' && current.sha256 === builtin.sha256) return false;
  const data = parseBuiltin(builtin.text);
  const detail: CsuImportDetail = {
    kind: 'builtin',
    origin: BUILTIN_ORIGIN,
    snapshot: builtin.snapshot,
    sha256: builtin.sha256,
    districts: data.districts.length,
    municipalities: data.municipalities.length,
  };
  const changed = await replaceCsuData(ctx.db, data, detail, true);
  return changed;
}

/** Which ČSÚ codebook is in use and where it came from (start-up report, `ros-admin reference status`). */
export interface CodebookInUse {
  kind: CsuImportDetail['kind'];
  origin: string;
  /** The built-in codebook's snapshot ("spring 2024"); undefined for a folder or a download. */
  snapshot?: string;
  importedAt: string;
  districts: number;
  municipalities: number;
  /** For the built-in kind: whether it is this version's built-in file. */
  current?: boolean;
  /** At start: why the codebook asked for (ROS_REFERENCE_DIR, download) is not the one in use. */
  notice?: string;
}

export async function codebookInUse(ctx: ServiceContext): Promise<CodebookInUse | undefined> {
  const row = await readImport(ctx.db.kysely, SOURCE_CSU);
  const d = csuDetail(row);
  if (!row || !d) return undefined;
  return {
    kind: d.kind,
    origin: d.origin,
    snapshot: d.snapshot,
    importedAt: row.imported_at,
    districts: d.districts,
    municipalities: d.municipalities,
    current: d.kind === 'builtin' ? d.sha256 === readBuiltin().sha256 : undefined,
  };
}

/** One line saying which codebook is loaded, e.g. "built-in (ČSÚ snapshot of spring 2024), loaded …". */
export function describeCodebook(c: CodebookInUse | undefined): string {
  if (!c) return 'none loaded yet (the server loads the built-in one at its next start)';
  const counts = `${c.municipalities} municipalities, ${c.districts} districts`;
  const date = c.importedAt.slice(0, 16).replace('T', ' ');
  if (c.kind === 'builtin') {
    const old =
      c.current === false ? '; an older built-in version: the next start loads the current one' : '';
    return `built-in (ČSÚ snapshot of ${c.snapshot ?? '?'}), loaded ${date} UTC: ${counts}${old}`;
  }
  if (c.kind === 'folder') return `from folder ${c.origin}, imported ${date} UTC: ${counts}`;
  return `downloaded from ČSÚ (${c.origin}) ${date} UTC: ${counts}`;
}

/**
 * Start-up: the fixed lists and countries are seeded when their definition changed. The ČSÚ
 * codebook: from ROS_REFERENCE_DIR when set (imported when its file changed); else the stored
 * import of a folder or download stays; else (nothing stored, or the built-in) ČSÚ's current
 * export is downloaded when ROS_REFERENCE_DOWNLOAD is on, and otherwise (or when that fails) the
 * built-in codebook is loaded (a no-op when this version is already stored). A bad or missing
 * file never stops the server: the data loaded before, or the built-in codebook, stays in use.
 */
export async function ensureReferenceData(
  ctx: ServiceContext,
  log: FastifyBaseLogger,
  opts: { catalogueUrl?: string; timeoutMs?: number } = {},
): Promise<CodebookInUse | undefined> {
  const started = Date.now();
  const seeded = await seedStaticLists(ctx.db);
  if (seeded.codeLists || seeded.countries) log.info(seeded, 'reference lists seeded');

  const stored = csuDetail(await readImport(ctx.db.kysely, SOURCE_CSU));
  const { referenceDir, referenceDownload } = ctx.config;
  let fromOutside = stored !== undefined && stored.kind !== 'builtin';
  let notice: string | undefined;
  if (referenceDir) {
    try {
      const r = await importCsuFolder(ctx, referenceDir, { onlyIfChanged: true });
      fromOutside = true;
      log.info(
        { file: r.origin, districts: r.districts, municipalities: r.municipalities, changed: r.changed },
        r.changed ? 'ČSÚ codebook imported' : 'ČSÚ codebook unchanged since the last import',
      );
    } catch (err) {
      if (!(err instanceof ReferenceImportError)) throw err;
      notice =
        `ČSÚ codebook from ROS_REFERENCE_DIR not loaded: ${err.message}. ` +
        (fromOutside ? 'The codebook imported before stays in use.' : 'The built-in codebook is used.');
      log.error(notice);
    }
  } else if (!fromOutside && referenceDownload) {
    try {
      const r = await importCsuDownload(ctx, opts);
      fromOutside = true;
      log.info(
        { url: r.origin, districts: r.districts, municipalities: r.municipalities },
        'ČSÚ codebook downloaded',
      );
    } catch (err) {
      if (!(err instanceof ReferenceImportError)) throw err;
      notice = `ČSÚ codebook not downloaded (${err.message}): the built-in codebook is used.`;
      log.warn(notice);
    }
  }
  if (!fromOutside && (await loadBuiltin(ctx))) log.info('built-in ČSÚ codebook loaded');
  const inUse = await codebookInUse(ctx);
  log.info({ ms: Date.now() - started, codebook: inUse }, 'reference data ready');
  return inUse && notice ? { ...inUse, notice } : inUse;
}

export interface ReferenceStatus {
  districts: number;
  municipalities: number;
  countries: number;
  codeLists: Record<string, number>;
  imports: ImportRow[];
}

export async function referenceStatus(ctx: ServiceContext): Promise<ReferenceStatus> {
  const k = ctx.db.kysely;
  const [districts, municipalities, countries, lists, imports] = await Promise.all([
    countRows(k, 'districts'),
    countRows(k, 'municipalities'),
    countRows(k, 'countries'),
    k
      .selectFrom('code_lists')
      .select(['list', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('list')
      .execute(),
    k.selectFrom('reference_imports').selectAll().orderBy('source').execute(),
  ]);
  const codeLists: Record<string, number> = {};
  for (const name of CODE_LIST_NAMES) codeLists[name] = Number(lists.find((l) => l.list === name)?.n ?? 0);
  return { districts, municipalities, countries, codeLists, imports };
}

import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.js';
import { BUILTIN_DISTRICTS, BUILTIN_MUNICIPALITIES } from './builtin.js';
import { invalidateReferenceCache } from './cache.js';
import {
  CSU_LINK_FILE,
  type CsuData,
  parseCsuLinkFile,
  ReferenceImportError,
  sortDistricts,
  withLongNames,
} from './csu.js';
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

export { getServedList, invalidateReferenceCache, type ListName } from './cache.js';
export { ReferenceImportError } from './csu.js';

export interface ImportResult {
  /** false when the same file was imported before and nothing had to be done. */
  changed: boolean;
  origin: string;
  sha256: string;
  districts: number;
  municipalities: number;
}

const HOW_TO_LOAD =
  'set ROS_REFERENCE_DIR to a folder holding ČSÚ\'s VAZ0043_0101_CS.csv and restart, or run "ros-admin reference import --dir DIR"';

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
  ctx: AppContext,
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
  invalidateReferenceCache(ctx.db);
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
  ctx: AppContext,
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
  ctx: AppContext,
  opts: { catalogueUrl?: string; timeoutMs?: number } = {},
): Promise<ImportResult> {
  const { bytes, url } = await downloadCsuLinkFile(
    opts.catalogueUrl ?? CSU_CATALOGUE_URL,
    opts.timeoutMs ?? DOWNLOAD_TIMEOUT_MS,
  );
  return importBytes(ctx, bytes, 'download', url, false);
}

export function builtinData(): CsuData {
  const districts = sortDistricts([...BUILTIN_DISTRICTS]);
  return { districts, municipalities: withLongNames([...BUILTIN_MUNICIPALITIES], districts) };
}

/** Loads the built-in minimum (all districts, the largest towns); skipped when already loaded. */
export async function loadBuiltin(ctx: AppContext): Promise<boolean> {
  const data = builtinData();
  const detail: CsuImportDetail = {
    kind: 'builtin',
    origin: 'built-in minimum',
    sha256: sha256(JSON.stringify(data)),
    districts: data.districts.length,
    municipalities: data.municipalities.length,
  };
  const changed = await replaceCsuData(ctx.db, data, detail, true);
  invalidateReferenceCache(ctx.db);
  return changed;
}

/**
 * Start-up: the fixed lists and countries are seeded when their definition changed; the
 * ČSÚ codebook is imported from ROS_REFERENCE_DIR when its file changed, else downloaded
 * from ČSÚ when no full codebook is stored yet (ROS_REFERENCE_DOWNLOAD), else the stored
 * data stays; with nothing stored at all the built-in minimum is loaded with a warning.
 * A bad or missing file never stops the server: the data loaded before stays in use.
 */
export async function ensureReferenceData(
  ctx: AppContext,
  log: FastifyBaseLogger,
  opts: { catalogueUrl?: string; timeoutMs?: number } = {},
): Promise<void> {
  const started = Date.now();
  const seeded = await seedStaticLists(ctx.db);
  if (seeded.codeLists || seeded.countries) log.info(seeded, 'reference lists seeded');

  const stored = csuDetail(await readImport(ctx.db.kysely, SOURCE_CSU));
  const hasFull = stored !== undefined && stored.kind !== 'builtin';
  const { referenceDir, referenceDownload } = ctx.config;
  if (referenceDir) {
    try {
      const r = await importCsuFolder(ctx, referenceDir, { onlyIfChanged: true });
      log.info(
        { file: r.origin, districts: r.districts, municipalities: r.municipalities, changed: r.changed },
        r.changed ? 'ČSÚ codebook imported' : 'ČSÚ codebook unchanged since the last import',
      );
    } catch (err) {
      if (!(err instanceof ReferenceImportError)) throw err;
      log.error(
        `ČSÚ codebook from ROS_REFERENCE_DIR not loaded: ${err.message}. ` +
          (stored ? 'The data imported before stays in use.' : 'Falling back to the built-in minimum.'),
      );
    }
  } else if (!hasFull && referenceDownload) {
    try {
      const r = await importCsuDownload(ctx, opts);
      log.info(
        { url: r.origin, districts: r.districts, municipalities: r.municipalities },
        'ČSÚ codebook downloaded',
      );
    } catch (err) {
      if (!(err instanceof ReferenceImportError)) throw err;
      log.warn(`ČSÚ codebook not downloaded: ${err.message}`);
    }
  }

  const now = csuDetail(await readImport(ctx.db.kysely, SOURCE_CSU));
  if (!now || now.kind === 'builtin') {
    await loadBuiltin(ctx);
    const d = builtinData();
    log.warn(
      `Only the built-in minimum of reference data is loaded (${d.districts.length} districts, ` +
        `${d.municipalities.length} largest municipalities): the birth-municipality list is incomplete. ` +
        `To load the full ČSÚ codebook, ${HOW_TO_LOAD}.`,
    );
  }
  invalidateReferenceCache(ctx.db);
  log.debug({ ms: Date.now() - started }, 'reference data ready');
}

export interface ReferenceStatus {
  districts: number;
  municipalities: number;
  countries: number;
  codeLists: Record<string, number>;
  imports: ImportRow[];
}

export async function referenceStatus(ctx: AppContext): Promise<ReferenceStatus> {
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

import { ReferenceImportError } from './csu.js';

/**
 * ČSÚ publishes each codebook and each link between two codebooks as open data; the
 * catalogue record `cis43vaz101` (municipality → district) names the current CSV export
 * of ČSÚ's metainformation system (apl2.czso.cz/iSMS/do_cis_export?kodcis=43&typdat=1&
 * cisvaz=101_…&format=2). Asking the catalogue first means the export's internal link id
 * never has to be written into this code.
 */
export const CSU_CATALOGUE_URL = 'https://vdb.czso.cz/pll/eweb/package_show?id=cis43vaz101';

/** Start-up must stay fast: the whole download gets this long, then the server goes on without it. */
export const DOWNLOAD_TIMEOUT_MS = 5000;
const MAX_BYTES = 20 * 1024 * 1024;

export interface Downloaded {
  bytes: Uint8Array;
  url: string;
}

interface CatalogueResource {
  url?: unknown;
  format?: unknown;
  mimetype?: unknown;
}

async function fetchBytes(url: string, signal: AbortSignal, accept: string): Promise<Uint8Array> {
  const res = await fetch(url, {
    signal,
    headers: { accept, 'user-agent': 'ros-portal (reference data import)' },
  });
  if (!res.ok) throw new ReferenceImportError(`${url} answered HTTP ${res.status}`);
  const length = Number(res.headers.get('content-length') ?? 0);
  if (length > MAX_BYTES) throw new ReferenceImportError(`${url} is larger than ${MAX_BYTES} bytes`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.byteLength > MAX_BYTES)
    throw new ReferenceImportError(`${url} is larger than ${MAX_BYTES} bytes`);
  return bytes;
}

/** The CSV address named by the catalogue record (a CSV resource, or the export asked for CSV). */
export function csvUrlFromCatalogue(json: unknown, base: string): string {
  const resources = (json as { result?: { resources?: CatalogueResource[] } } | null)?.result?.resources;
  if (!Array.isArray(resources) || resources.length === 0) {
    throw new ReferenceImportError('the ČSÚ catalogue record lists no files');
  }
  const isCsv = (r: CatalogueResource) =>
    /csv/i.test(`${String(r.format ?? '')} ${String(r.mimetype ?? '')}`);
  const chosen = resources.find((r) => isCsv(r) && typeof r.url === 'string') ?? resources[0];
  if (!chosen || typeof chosen.url !== 'string')
    throw new ReferenceImportError('the ČSÚ catalogue record has no URL');
  const url = new URL(chosen.url, base);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ReferenceImportError(`the ČSÚ catalogue names an unsupported address ${url.protocol}`);
  }
  // The iSMS export gives XML with format=0; format=2 is its CSV.
  if (!isCsv(chosen) && url.searchParams.has('format')) {
    url.searchParams.set('format', '2');
    url.searchParams.set('separator', ',');
  }
  return url.toString();
}

/**
 * Downloads the current municipality → district link export. Fails within `timeoutMs`
 * (no internet, a slow or changed service) with a ReferenceImportError.
 */
export async function downloadCsuLinkFile(
  catalogueUrl = CSU_CATALOGUE_URL,
  timeoutMs = DOWNLOAD_TIMEOUT_MS,
): Promise<Downloaded> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const catalogue = await fetchBytes(catalogueUrl, signal, 'application/json');
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(catalogue));
    } catch {
      throw new ReferenceImportError(`${catalogueUrl} did not answer JSON`);
    }
    const url = csvUrlFromCatalogue(json, catalogueUrl);
    return { bytes: await fetchBytes(url, signal, 'text/csv'), url };
  } catch (err) {
    if (err instanceof ReferenceImportError) throw err;
    const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
    const reason =
      e.name === 'TimeoutError' || e.name === 'AbortError'
        ? `no answer within ${timeoutMs} ms`
        : (e.cause?.code ?? e.cause?.message ?? e.message ?? String(err));
    throw new ReferenceImportError(`cannot download the ČSÚ codebook (${reason})`);
  }
}

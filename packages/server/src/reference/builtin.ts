import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type CsuData, type District, ReferenceImportError, sortDistricts, withLongNames } from './csu.js';
import { sha256 } from './store.js';

/**
 * The built-in ČSÚ codebook: every municipality with its district, shipped in the repository
 * (packages/server/codebooks/, docs/reference-data.md says where it comes from and ČSÚ's terms).
 * A compact derivative of ČSÚ's VAZ0043_0101_CS.csv: the columns that are the same on every
 * row are dropped and each district is written once, so it is a quarter of the size and reads
 * three times faster than the CSV. Made by `node scripts/codebook.mjs` from ČSÚ's file, with the
 * same checks as an import. The same path from src/reference and from dist/reference.
 */
export const BUILTIN_FILE = fileURLToPath(new URL('../../codebooks/csu-municipalities.tsv', import.meta.url));

export interface BuiltinCodebook {
  /** "spring 2024": when ČSÚ's file was taken. */
  snapshot: string;
  /** What it was made from (file name, ČSÚ codebooks). */
  source: string;
  /** SHA-256 of the built-in file: the version the database remembers. */
  sha256: string;
  text: string;
}

const DISTRICTS = '[districts]';
const MUNICIPALITIES = '[municipalities]';

/** Reads the built-in file and its header (`# key: value` lines); the rows are parsed on demand. */
export function readBuiltin(file = BUILTIN_FILE): BuiltinCodebook {
  const bytes = readFileSync(file);
  const text = bytes.toString('utf8');
  const meta: Record<string, string> = {};
  for (const line of text.split('\n', 20)) {
    const m = /^# ([a-z-]+): (.*)$/.exec(line);
    if (m?.[1] && m[2] !== undefined) meta[m[1]] = m[2].trim();
  }
  return { snapshot: meta.snapshot ?? '?', source: meta.source ?? '?', sha256: sha256(bytes), text };
}

/** The rows of the built-in file, with `long_name` made as for an import. Throws on a damaged file. */
export function parseBuiltin(text: string): CsuData {
  const districts: District[] = [];
  const rows: Array<{ code: string; name: string; district: string }> = [];
  let section = '';
  const lines = text.split('\n');
  for (const [i, raw] of lines.entries()) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '' || line.startsWith('#')) continue;
    if (line === DISTRICTS || line === MUNICIPALITIES) {
      section = line;
      continue;
    }
    const f = line.split('\t');
    if (section === DISTRICTS && f.length === 2 && f[0] && f[1]) districts.push({ code: f[0], name: f[1] });
    else if (section === MUNICIPALITIES && f.length === 3 && f[0] && f[1] && f[2])
      rows.push({ code: f[0], name: f[1], district: f[2] });
    else throw new ReferenceImportError(`the built-in codebook is damaged`, i + 1);
  }
  if (districts.length === 0 || rows.length === 0) {
    throw new ReferenceImportError('the built-in codebook is empty');
  }
  return { districts: sortDistricts(districts), municipalities: withLongNames(rows, districts) };
}

/** Writes `data` (checked by parseCsuLinkFile) in the built-in format; used by scripts/codebook.mjs. */
export function formatBuiltin(
  data: CsuData,
  meta: { snapshot: string; source: string; sourceSha256: string },
) {
  const byCode = (a: { code: string }, b: { code: string }) => a.code.localeCompare(b.code);
  const clean = (s: string) => s.replace(/[\t\r\n]/g, ' ');
  return [
    "# ČSÚ's municipality → district codebook, built into the ROS portal (docs/reference-data.md).",
    '# Český statistický úřad (Czech Statistical Office), open data; terms of use:',
    '# https://csu.gov.cz/conditions_for_use_and_further_dissemination',
    `# source: ${meta.source}`,
    `# source-sha256: ${meta.sourceSha256}`,
    `# snapshot: ${meta.snapshot}`,
    '# Derived: the columns that repeat on every row are dropped, each district is listed once;',
    '# codes and names are as ČSÚ publishes them. Rows: code<TAB>name[<TAB>district code].',
    DISTRICTS,
    ...[...data.districts].sort(byCode).map((d) => `${d.code}\t${clean(d.name)}`),
    MUNICIPALITIES,
    ...[...data.municipalities].sort(byCode).map((m) => `${m.code}\t${clean(m.name)}\t${m.district}`),
    '',
  ].join('\n');
}

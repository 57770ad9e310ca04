import { CsvSyntaxError, parseCsv } from './csv.js';

/**
 * ČSÚ's link between codebook 43 (municipalities, CISOB) and codebook 101 (districts,
 * OKRES_NUTS), in ČSÚ's own CSV export: one row a municipality.
 */
export const CSU_LINK_FILE = 'VAZ0043_0101_CS.csv';
export const CSU_COLUMNS = [
  'kodjaz',
  'typvaz',
  'akrcis1',
  'kodcis1',
  'chodnota1',
  'text1',
  'akrcis2',
  'kodcis2',
  'chodnota2',
  'text2',
] as const;

/** Widths of the storage columns (db/migrations.ts). */
const MAX_CODE = 16;
const MAX_NAME = 240;

export interface District {
  code: string;
  name: string;
}

export interface Municipality {
  code: string;
  name: string;
  /** The name, made unique by the district where the name occurs more than once. */
  long_name: string;
  /** District code. */
  district: string;
}

export interface CsuData {
  districts: District[];
  municipalities: Municipality[];
}

/** A codebook file that cannot be loaded; `line` is the 1-based line of the problem. */
export class ReferenceImportError extends Error {
  constructor(
    message: string,
    public readonly line?: number,
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`);
  }
}

/**
 * Reads and checks the whole link file. Any problem throws ReferenceImportError with the
 * line number: a file is loaded completely or not at all.
 */
export function parseCsuLinkFile(text: string): CsuData {
  let records: ReturnType<typeof parseCsv>;
  try {
    records = parseCsv(text);
  } catch (err) {
    if (err instanceof CsvSyntaxError)
      throw new ReferenceImportError(err.message.replace(/^line \d+: /, ''), err.line);
    throw err;
  }
  const header = records[0];
  if (!header) throw new ReferenceImportError('the file is empty', 1);
  const names = header.fields.map((f) => f.trim().toLowerCase());
  const col = {} as Record<(typeof CSU_COLUMNS)[number], number>;
  const missing: string[] = [];
  for (const c of CSU_COLUMNS) {
    const idx = names.indexOf(c);
    if (idx === -1) missing.push(c);
    col[c] = idx;
  }
  if (missing.length > 0) {
    throw new ReferenceImportError(
      `the header lacks ${missing.join(', ')} (expected ČSÚ's link export with ${CSU_COLUMNS.join(',')})`,
      header.line,
    );
  }

  const districts = new Map<string, { name: string; line: number }>();
  const seen = new Map<string, number>();
  const rows: Array<{ code: string; name: string; district: string }> = [];
  for (const rec of records.slice(1)) {
    const { line, fields } = rec;
    if (fields.length !== names.length) {
      throw new ReferenceImportError(`expected ${names.length} fields, found ${fields.length}`, line);
    }
    const get = (c: (typeof CSU_COLUMNS)[number]) => (fields[col[c]] ?? '').trim();
    const kodcis1 = get('kodcis1');
    const kodcis2 = get('kodcis2');
    if (Number(kodcis1) !== 43 || Number(kodcis2) !== 101) {
      throw new ReferenceImportError(
        `links codebook ${kodcis1 || '?'} to ${kodcis2 || '?'}; expected 43 (municipalities) to 101 (districts)`,
        line,
      );
    }
    const code = get('chodnota1');
    const name = get('text1');
    const district = get('chodnota2');
    const districtName = get('text2');
    if (!/^\d+$/.test(code) || code.length > MAX_CODE) {
      throw new ReferenceImportError(`municipality code "${code}" is not a number`, line);
    }
    if (!/^\d+$/.test(district) || district.length > MAX_CODE) {
      throw new ReferenceImportError(`district code "${district}" is not a number`, line);
    }
    if (!name) throw new ReferenceImportError(`municipality ${code} has no name`, line);
    if (!districtName) throw new ReferenceImportError(`district ${district} has no name`, line);
    if (name.length > MAX_NAME || districtName.length > MAX_NAME) {
      throw new ReferenceImportError(`a name is longer than ${MAX_NAME} characters`, line);
    }
    const earlier = seen.get(code);
    if (earlier !== undefined) {
      throw new ReferenceImportError(
        `municipality code ${code} occurs twice (also on line ${earlier})`,
        line,
      );
    }
    seen.set(code, line);
    const known = districts.get(district);
    if (known && known.name !== districtName) {
      throw new ReferenceImportError(
        `district ${district} is called "${districtName}" here but "${known.name}" on line ${known.line}`,
        line,
      );
    }
    if (!known) districts.set(district, { name: districtName, line });
    rows.push({ code, name, district });
  }
  if (rows.length === 0) throw new ReferenceImportError('the file holds no municipalities', header.line);

  const districtList = [...districts].map(([code, d]) => ({ code, name: d.name }));
  return {
    districts: sortDistricts(districtList),
    municipalities: withLongNames(rows, districtList),
  };
}

const czech = new Intl.Collator('cs');

export function sortDistricts(districts: District[]): District[] {
  return [...districts].sort((a, b) => czech.compare(a.name, b.name) || a.code.localeCompare(b.code));
}

/**
 * Adds `long_name`: a name that occurs once stays as it is; a repeated name gets its
 * district, "Nová Ves (Brno-venkov)"; where even name and district repeat (ČSÚ has two
 * Březina in Brno-venkov and two Mezholezy in Domažlice) the municipality code is added,
 * "Březina (Brno-venkov, 581429)". The order of `rows` is kept (the API sorts).
 */
export function withLongNames(
  rows: Array<{ code: string; name: string; district: string }>,
  districts: District[],
): Municipality[] {
  const districtName = new Map(districts.map((d) => [d.code, d.name]));
  const byName = new Map<string, number>();
  const byNameDistrict = new Map<string, number>();
  const key = (r: { name: string; district: string }) => `${r.name}\u0000${r.district}`;
  for (const r of rows) {
    byName.set(r.name, (byName.get(r.name) ?? 0) + 1);
    byNameDistrict.set(key(r), (byNameDistrict.get(key(r)) ?? 0) + 1);
  }
  const result = rows.map((r) => {
    let long_name = r.name;
    if ((byName.get(r.name) ?? 0) > 1) {
      const dn = districtName.get(r.district) ?? r.district;
      long_name =
        (byNameDistrict.get(key(r)) ?? 0) > 1 ? `${r.name} (${dn}, ${r.code})` : `${r.name} (${dn})`;
    }
    return { code: r.code, name: r.name, long_name: long_name.slice(0, MAX_NAME), district: r.district };
  });
  return result;
}

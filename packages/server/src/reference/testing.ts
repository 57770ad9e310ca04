import type { FastifyBaseLogger } from 'fastify';
import { parseBuiltin, readBuiltin } from './builtin.js';

/** Test helpers for the reference data (not used by the server). */

// ČSÚ's label of the link type ("editing link"), as its export writes it on every row.
const LINK_TYPE = 'Edita\u010dn\u00ed vazba';

/** A made-up file in ČSÚ's export format (not real data). */
export function csuCsv(
  rows: Array<[code: string, name: string, district: string, districtName: string]>,
): string {
  const header =
    '"kodjaz","typvaz","akrcis1","kodcis1","chodnota1","text1","akrcis2","kodcis2","chodnota2","text2"';
  const lines = rows.map(
    ([c, n, d, dn]) =>
      `"CS","${LINK_TYPE}","CISOB",43,"${c}","${n.replace(/"/g, '""')}","OKRES_NUTS",101,"${d}","${dn}"`,
  );
  return `${[header, ...lines].join('\r\n')}\r\n`;
}

/**
 * The built-in codebook written back in ČSÚ's export format: a full-size file (6,258 rows)
 * for the import tests, made from what the repository holds (nothing outside it is read).
 */
export function builtinAsCsuCsv(): string {
  const data = parseBuiltin(readBuiltin().text);
  const districtName = new Map(data.districts.map((d) => [d.code, d.name]));
  return csuCsv(
    data.municipalities.map((m) => [m.code, m.name, m.district, districtName.get(m.district) ?? '']),
  );
}

/** A logger that keeps what it was given, to check warnings. */
export function recordingLogger(): FastifyBaseLogger & { lines: Array<{ level: string; msg: string }> } {
  const lines: Array<{ level: string; msg: string }> = [];
  const at =
    (level: string) =>
    (...args: unknown[]) => {
      const msg = args.find((a) => typeof a === 'string');
      lines.push({ level, msg: typeof msg === 'string' ? msg : '' });
    };
  const logger = {
    lines,
    level: 'debug',
    fatal: at('fatal'),
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    trace: at('trace'),
    silent: () => {},
    child: () => logger,
  };
  return logger as unknown as FastifyBaseLogger & { lines: Array<{ level: string; msg: string }> };
}

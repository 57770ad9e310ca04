import { parseIsoInstant } from '@ros/domain';
import type { Out } from './dispatch.js';

/** Prints rows under a header, columns padded to their widest cell (the last one unpadded). */
export function printTable(out: Out, columns: readonly string[], rows: readonly string[][]): void {
  const widths = columns.map((c, i) => Math.max(c.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  out(line(columns));
  for (const r of rows) out(line(r));
}

/** An ISO time as stored, to the second; '-' for none. */
export const time = (iso: string | null | undefined) => (iso ? iso.replace(/\.[0-9]+Z$/, 'Z') : '-');

/** 'YYYY-MM-DD' or an ISO time with zone -> ISO; null when it is neither or not in the calendar (2026-02-30). */
export function isoTime(s: string): string | null {
  return parseIsoInstant(s);
}

/** A whole number from 1 to max, or null. */
export function count(s: string, max: number): number | null {
  if (!/^[0-9]{1,7}$/.test(s)) return null;
  const n = Number(s);
  return n >= 1 && n <= max ? n : null;
}

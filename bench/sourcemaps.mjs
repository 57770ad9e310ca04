/**
 * Where a position in a built asset of the web app came from: the build's source maps
 * (packages/web/dist/assets/*.map), read with a minimal decoder of their "mappings" field (base64
 * VLQ). For bench/profile.mjs and bench/lantern-tasks.mjs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(fileURLToPath(new URL('..', import.meta.url)), 'packages/web/dist');

const B64 = Object.fromEntries(
  [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].map((c, i) => [c, i]),
);
function decodeMappings(mappings) {
  const lines = [];
  let source = 0;
  let srcLine = 0;
  for (const line of mappings.split(';')) {
    const segs = [];
    let col = 0;
    for (const seg of line.split(',')) {
      if (!seg) continue;
      const nums = [];
      let value = 0;
      let shift = 0;
      for (const ch of seg) {
        const digit = B64[ch];
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          nums.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      col += nums[0];
      if (nums.length > 1) {
        source += nums[1];
        srcLine += nums[2];
      }
      segs.push([col, nums.length > 1 ? source : -1, srcLine]);
    }
    lines.push(segs);
  }
  return lines;
}
const maps = new Map();
/** The source file a position of a built asset came from (package name for node_modules). */
export function sourceOf(url, line, col, withLine = false) {
  const file = url.replace(/^https?:\/\/[^/]+\//, '').split('?')[0];
  if (!file.startsWith('assets/')) return file || '(page)';
  if (!maps.has(file)) {
    const path = join(dist, `${file}.map`);
    if (!existsSync(path)) maps.set(file, null);
    else {
      const map = JSON.parse(readFileSync(path, 'utf8'));
      maps.set(file, { sources: map.sources, lines: decodeMappings(map.mappings) });
    }
  }
  const map = maps.get(file);
  if (!map) return file;
  const segs = map.lines[line] ?? [];
  let found = -1;
  let foundLine = 0;
  for (const [c, s, l] of segs) {
    if (c > col) break;
    found = s;
    foundLine = l;
  }
  if (found < 0) return withLine ? `${file} (unmapped) ${line}:${col}` : `${file} (unmapped)`;
  const src = map.sources[found].replace(/^(\.\.\/)+/, '');
  if (withLine) return `${src}:${foundLine + 1}`;
  const pkg = src.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg)
    return pkg[1] === 'react-dom' || pkg[1] === 'zod' ? `${pkg[1]} (${src.split('/').at(-1)})` : pkg[1];
  return src;
}

/** A CPU profile's call frame as "function @ source:line" (the build's source, else "(native)"). */
export function frameLabel({ url, lineNumber, columnNumber, functionName }) {
  const where = url ? sourceOf(url, lineNumber, columnNumber, true) : `(${functionName || 'native'})`;
  return `${functionName || '(anonymous)'} @ ${where}`;
}

/** Whether a frame's label is of the app's own source (web or domain), not a library's or the browser's. */
export const isAppFrame = (label) => / @ (src|domain\/src)\//.test(label);

#!/usr/bin/env node
// Makes the built-in ČSÚ codebook (packages/server/codebooks/csu-municipalities.tsv) from ČSÚ's
// VAZ0043_0101_CS.csv, with the same checks as `ros-admin reference import`. Run after a build:
//   node scripts/codebook.mjs PATH/TO/VAZ0043_0101_CS.csv --snapshot "spring 2025"
// then commit the file and update the date in docs/reference-data.md.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { BUILTIN_FILE, formatBuiltin } from '../packages/server/dist/reference/builtin.js';
import { parseCsuLinkFile } from '../packages/server/dist/reference/csu.js';
import { decodeCodebook } from '../packages/server/dist/reference/csv.js';

const args = process.argv.slice(2);
const at = args.indexOf('--snapshot');
const snapshot = at === -1 ? undefined : args[at + 1];
const file = args.find((a, i) => !a.startsWith('--') && i !== at + 1);
if (!file || !snapshot) {
  console.error('Usage: node scripts/codebook.mjs VAZ0043_0101_CS.csv --snapshot "spring 2025"');
  process.exit(2);
}
const bytes = readFileSync(file);
const data = parseCsuLinkFile(decodeCodebook(bytes));
const text = formatBuiltin(data, {
  snapshot,
  source: `${basename(file)}: ČSÚ codebook 43 (municipalities, CISOB) linked to codebook 101 (districts, OKRES_NUTS)`,
  sourceSha256: createHash('sha256').update(bytes).digest('hex'),
});
writeFileSync(BUILTIN_FILE, text);
console.log(
  `Wrote ${BUILTIN_FILE}: ${data.municipalities.length} municipalities, ${data.districts.length} districts (${text.length} characters).`,
);

import { resolve } from 'node:path';
import type { AppContext } from '../context.js';
import {
  codebookInUse,
  describeCodebook,
  type ImportResult,
  importCsuDownload,
  importCsuFolder,
  loadBuiltin,
  ReferenceImportError,
  referenceStatus,
} from '../reference/index.js';
import { seedStaticLists } from '../reference/store.js';

const USAGE = [
  'Usage: ros-admin reference <command>',
  "  import [--dir DIR]   import ČSÚ's VAZ0043_0101_CS.csv from DIR (default: ROS_REFERENCE_DIR);",
  '                       with neither, download the current codebook from ČSÚ',
  '  import --builtin     go back to the codebook built into this version',
  '  status               which ČSÚ codebook is loaded and from where, counts of every list',
];

function describe(r: ImportResult): string {
  return `${r.municipalities} municipalities and ${r.districts} districts from ${r.origin}`;
}

/** `ros-admin reference import|status`: exit code 0 on success, 1 on a failed import, 2 on bad usage. */
export async function run(args: string[], ctx: AppContext, out: (line: string) => void): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'import') {
    let dir: string | undefined;
    let builtin = false;
    for (let i = 0; i < rest.length; i++) {
      const arg = rest[i];
      if (arg === '--builtin' && !dir) {
        builtin = true;
      } else if (arg === '--dir' && rest[i + 1] && !builtin) {
        dir = resolve(rest[i + 1] as string);
        i++;
      } else if (arg?.startsWith('--dir=') && arg.length > 6 && !builtin) {
        dir = resolve(arg.slice(6));
      } else {
        out(`Unknown argument: ${arg}`);
        for (const l of USAGE) out(l);
        return 2;
      }
    }
    if (!builtin) dir ??= ctx.config.referenceDir;
    await seedStaticLists(ctx.db);
    try {
      if (builtin) {
        await loadBuiltin(ctx);
        out(`Loaded ${describeCodebook(await codebookInUse(ctx))}.`);
      } else if (dir) {
        const r = await importCsuFolder(ctx, dir);
        out(`Imported ${describe(r)}.`);
      } else {
        out('No --dir and no ROS_REFERENCE_DIR: downloading the current codebook from ČSÚ …');
        const r = await importCsuDownload(ctx);
        out(`Imported ${describe(r)}.`);
      }
      out('Running servers pick up the new lists within 30 seconds.');
      return 0;
    } catch (err) {
      if (!(err instanceof ReferenceImportError)) throw err;
      out(`Import failed, nothing was changed: ${err.message}`);
      return 1;
    }
  }
  if (command === 'status') {
    const s = await referenceStatus(ctx);
    out(`ČSÚ codebook: ${describeCodebook(await codebookInUse(ctx))}`);
    const counts: Array<[string, number]> = [
      ['districts', s.districts],
      ['municipalities', s.municipalities],
      ['countries', s.countries],
      ...Object.entries(s.codeLists),
    ];
    for (const [name, n] of counts) out(`${name.padEnd(20)} ${n}`);
    if (s.imports.length === 0) out('No import yet: the server loads the reference data at its next start.');
    for (const i of s.imports) {
      let detail = i.detail;
      try {
        const d = JSON.parse(i.detail) as Record<string, unknown>;
        detail = Object.entries(d)
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(' ');
      } catch {
        // shown as stored
      }
      out(`last import of ${i.source}: ${i.imported_at} ${detail}`);
    }
    return 0;
  }
  for (const l of USAGE) out(l);
  return command === undefined || command === '--help' || command === 'help' ? 0 : 2;
}

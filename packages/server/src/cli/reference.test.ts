import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.js';
import { ensureReferenceData } from '../reference/index.js';
import { builtinAsCsuCsv, csuCsv, recordingLogger } from '../reference/testing.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { run } from './reference.js';

for (const kind of await testDbKinds()) {
  describe(`ros-admin reference (${kind})`, () => {
    let t: TestDb;
    let ctx: AppContext;
    let lines: string[];
    const out = (l: string) => lines.push(l);
    /** A folder with a full codebook in ČSÚ's format (made from the built-in one). */
    let csuDir: string;

    beforeEach(async () => {
      t = await createTestDb(kind);
      ctx = { config: t.config, db: t.db, version: 'test' };
      lines = [];
      csuDir = mkdtempSync(join(tmpdir(), 'ros-ref-'));
      writeFileSync(join(csuDir, 'VAZ0043_0101_CS.csv'), builtinAsCsuCsv());
    });
    afterEach(async () => {
      await t?.cleanup();
      rmSync(csuDir, { recursive: true, force: true });
    });

    it('imports from --dir and shows the counts and the last import in status', async () => {
      expect(await run(['import', '--dir', csuDir], ctx, out)).toBe(0);
      expect(lines[0]).toBe(
        `Imported 6258 municipalities and 77 districts from ${csuDir}/VAZ0043_0101_CS.csv.`,
      );
      lines = [];
      expect(await run(['status'], ctx, out)).toBe(0);
      expect(lines[0]).toMatch(
        new RegExp(
          `^ČSÚ codebook: from folder ${csuDir}/VAZ0043_0101_CS.csv, imported .* UTC: 6258 municipalities, 77 districts$`,
        ),
      );
      expect(lines).toContain(`${'municipalities'.padEnd(20)} 6258`);
      expect(lines).toContain(`${'districts'.padEnd(20)} 77`);
      expect(lines).toContain(`${'countries'.padEnd(20)} 251`);
      expect(lines).toContain(`${'activity-types'.padEnd(20)} 3`);
      expect(lines.find((l) => l.startsWith('last import of csu:'))).toMatch(
        /kind=folder .*municipalities=6258/,
      );
    });

    it('imports from ROS_REFERENCE_DIR without --dir', async () => {
      const c = { ...ctx, config: { ...ctx.config, referenceDir: csuDir } };
      expect(await run(['import'], c, out)).toBe(0);
      expect(lines[0]).toMatch(/^Imported 6258 municipalities/);
    });

    it('reports a bad file with its line, exits 1 and changes nothing', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ros-ref-'));
      try {
        writeFileSync(
          join(dir, 'VAZ0043_0101_CS.csv'),
          csuCsv([
            ['900001', 'Jedna', '10001', 'Alfa'],
            ['900001', 'Dvakrát', '10001', 'Alfa'],
          ]),
        );
        expect(await run(['import', `--dir=${dir}`], ctx, out)).toBe(1);
        expect(lines.join('\n')).toMatch(
          /Import failed, nothing was changed: .*line 3: municipality code 900001 occurs twice/,
        );
        expect(await ctx.db.kysely.selectFrom('municipalities').selectAll().execute()).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('shows the built-in codebook after a plain start, and goes back to it with --builtin', async () => {
      await ensureReferenceData(ctx, recordingLogger());
      expect(await run(['status'], ctx, out)).toBe(0);
      expect(lines[0]).toMatch(
        /^ČSÚ codebook: built-in \(ČSÚ snapshot of spring 2024\), loaded .* UTC: 6258 municipalities, 77 districts$/,
      );
      expect(lines).toContain(`${'municipalities'.padEnd(20)} 6258`);

      const small = mkdtempSync(join(tmpdir(), 'ros-ref-'));
      try {
        writeFileSync(join(small, 'VAZ0043_0101_CS.csv'), csuCsv([['900001', 'Jedna', '10001', 'Alfa']]));
        expect(await run(['import', '--dir', small], ctx, out)).toBe(0);
      } finally {
        rmSync(small, { recursive: true, force: true });
      }
      lines = [];
      expect(await run(['import', '--builtin'], ctx, out)).toBe(0);
      expect(lines[0]).toMatch(/^Loaded built-in \(ČSÚ snapshot of spring 2024\).*6258 municipalities/);
      expect(await ctx.db.kysely.selectFrom('municipalities').selectAll().execute()).toHaveLength(6258);
      expect(await run(['import', '--builtin', '--dir', small], ctx, out)).toBe(2);
    });

    it('says when nothing was imported yet, and answers bad usage with exit code 2', async () => {
      expect(await run(['status'], ctx, out)).toBe(0);
      expect(lines.join('\n')).toMatch(/No import yet/);
      lines = [];
      expect(await run(['import', '--bogus'], ctx, out)).toBe(2);
      expect(lines[0]).toBe('Unknown argument: --bogus');
      expect(await run(['frobnicate'], ctx, out)).toBe(2);
      expect(await run([], ctx, out)).toBe(0);
    });
  });
}

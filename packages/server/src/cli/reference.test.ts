import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.js';
import { csuCsv } from '../reference/testing.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { run } from './reference.js';

const CSU_DIR = '/work/shared/data/csu';

for (const kind of await testDbKinds()) {
  describe(`ros-admin reference (${kind})`, () => {
    let t: TestDb;
    let ctx: AppContext;
    let lines: string[];
    const out = (l: string) => lines.push(l);

    beforeEach(async () => {
      t = await createTestDb(kind);
      ctx = { config: t.config, db: t.db, version: 'test' };
      lines = [];
    });
    afterEach(async () => {
      await t?.cleanup();
    });

    it('imports from --dir and shows the counts and the last import in status', async () => {
      expect(await run(['import', '--dir', CSU_DIR], ctx, out)).toBe(0);
      expect(lines[0]).toBe(
        `Imported 6258 municipalities and 77 districts from ${CSU_DIR}/VAZ0043_0101_CS.csv.`,
      );
      lines = [];
      expect(await run(['status'], ctx, out)).toBe(0);
      expect(lines).toContain(`${'municipalities'.padEnd(20)} 6258`);
      expect(lines).toContain(`${'districts'.padEnd(20)} 77`);
      expect(lines).toContain(`${'countries'.padEnd(20)} 251`);
      expect(lines).toContain(`${'activity-types'.padEnd(20)} 3`);
      expect(lines.find((l) => l.startsWith('last import of csu:'))).toMatch(
        /kind=folder .*municipalities=6258/,
      );
    });

    it('imports from ROS_REFERENCE_DIR without --dir', async () => {
      const c = { ...ctx, config: { ...ctx.config, referenceDir: CSU_DIR } };
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

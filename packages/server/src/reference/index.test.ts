import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import {
  codebookInUse,
  describeCodebook,
  ensureReferenceData,
  importCsuDownload,
  importCsuFolder,
  loadBuiltin,
  ReferenceImportError,
  referenceStatus,
} from './index.js';
import { CODE_LIST_NAMES } from './lists.js';
import { builtinAsCsuCsv, csuCsv, recordingLogger } from './testing.js';

const ALL = 6258;

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'ros-ref-'));
}

async function municipalities(ctx: AppContext) {
  return ctx.db.kysely.selectFrom('municipalities').selectAll().orderBy('code').execute();
}

for (const kind of await testDbKinds()) {
  describe(`reference data (${kind})`, () => {
    let t: TestDb;
    let ctx: AppContext;
    const dirs: string[] = [];
    const dir = () => {
      const d = tempDir();
      dirs.push(d);
      return d;
    };

    afterEach(async () => {
      await t?.cleanup();
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    });

    describe('with ROS_REFERENCE_DIR holding a full codebook in ČSÚ format', () => {
      beforeEach(async () => {
        const full = dir();
        writeFileSync(join(full, 'VAZ0043_0101_CS.csv'), builtinAsCsuCsv());
        t = await createTestDb(kind, { ROS_REFERENCE_DIR: full });
        ctx = { config: t.config, db: t.db, version: 'test' };
      });

      it('imports 6258 municipalities in 77 districts with unique long names', async () => {
        const log = recordingLogger();
        await ensureReferenceData(ctx, log);
        const rows = await municipalities(ctx);
        expect(rows).toHaveLength(6258);
        const districts = await ctx.db.kysely.selectFrom('districts').selectAll().execute();
        expect(districts).toHaveLength(77);
        expect(districts.find((d) => d.name === 'Praha')).toBeDefined();

        const novaVes = rows.filter((m) => m.name === 'Nová Ves');
        expect(novaVes).toHaveLength(14);
        expect(new Set(novaVes.map((m) => m.long_name)).size).toBe(14);
        expect(novaVes.map((m) => m.long_name)).toContain('Nová Ves (Brno-venkov)');
        expect(new Set(rows.map((m) => m.long_name)).size).toBe(6258);
        // A name that occurs once stays plain.
        expect(rows.find((m) => m.code === '582786')).toMatchObject({ name: 'Brno', long_name: 'Brno' });
        // Every municipality points at a known district.
        const codes = new Set(districts.map((d) => d.code));
        expect(rows.every((m) => codes.has(m.district))).toBe(true);
        expect(log.lines.filter((l) => l.level === 'warn' || l.level === 'error')).toEqual([]);
        expect((await codebookInUse(ctx))?.kind).toBe('folder');
      });

      it('does not import again at the next start when the file is unchanged', async () => {
        await ensureReferenceData(ctx, recordingLogger());
        const before = await ctx.db.kysely.selectFrom('reference_imports').selectAll().execute();
        const log = recordingLogger();
        await ensureReferenceData(ctx, log);
        const after = await ctx.db.kysely.selectFrom('reference_imports').selectAll().execute();
        expect(after).toEqual(before);
        expect(log.lines.map((l) => l.msg)).toContain('ČSÚ codebook unchanged since the last import');
      });

      it('gives the same lists as the built-in codebook', async () => {
        await ensureReferenceData(ctx, recordingLogger());
        const imported = await municipalities(ctx);
        await loadBuiltin(ctx);
        expect(await municipalities(ctx)).toEqual(imported);
      });
    });

    describe('with a made-up folder', () => {
      beforeEach(async () => {
        t = await createTestDb(kind);
        ctx = { config: t.config, db: t.db, version: 'test' };
      });

      it('rejects a bad file with its line number and keeps the data loaded before', async () => {
        const good = dir();
        writeFileSync(
          join(good, 'VAZ0043_0101_CS.csv'),
          csuCsv([
            ['900001', 'Horní Ves', '10001', 'Alfa'],
            ['900002', 'Horní Ves', '10002', 'Beta'],
          ]),
        );
        const first = await importCsuFolder(ctx, good);
        expect(first).toMatchObject({ changed: true, districts: 2, municipalities: 2 });

        const bad = dir();
        const rows: Array<[string, string, string, string]> = [];
        for (let i = 1; i <= 20; i++) rows.push([String(910000 + i), `Obec ${i}`, '10003', 'Gama']);
        rows[16] = ['91OO17', 'Obec 17', '10003', 'Gama'];
        writeFileSync(join(bad, 'VAZ0043_0101_CS.csv'), csuCsv(rows));
        const err = await importCsuFolder(ctx, bad).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ReferenceImportError);
        expect((err as Error).message).toContain('line 18: municipality code "91OO17" is not a number');

        const kept = await municipalities(ctx);
        expect(kept.map((m) => m.long_name).sort()).toEqual(['Horní Ves (Alfa)', 'Horní Ves (Beta)']);
        expect(await ctx.db.kysely.selectFrom('districts').selectAll().execute()).toHaveLength(2);
      });

      it('logs a bad ROS_REFERENCE_DIR file at start and uses the built-in codebook', async () => {
        const bad = dir();
        writeFileSync(join(bad, 'vaz0043_0101_cs.csv'), 'kod,nazev\n1,x\n');
        const log = recordingLogger();
        await ensureReferenceData({ ...ctx, config: { ...ctx.config, referenceDir: bad } }, log);
        expect(log.lines.some((l) => l.level === 'error' && /line 1: the header lacks/.test(l.msg))).toBe(
          true,
        );
        expect(await municipalities(ctx)).toHaveLength(ALL);
        expect((await codebookInUse(ctx))?.kind).toBe('builtin');
      });

      it('re-imports at start when the folder file changed', async () => {
        const d = dir();
        const file = join(d, 'VAZ0043_0101_CS.csv');
        writeFileSync(file, csuCsv([['900001', 'Jedna', '10001', 'Alfa']]));
        const c = { ...ctx, config: { ...ctx.config, referenceDir: d } };
        await ensureReferenceData(c, recordingLogger());
        expect((await municipalities(ctx)).map((m) => m.name)).toEqual(['Jedna']);
        writeFileSync(
          file,
          csuCsv([
            ['900001', 'Jedna', '10001', 'Alfa'],
            ['900002', 'Dvě', '10001', 'Alfa'],
          ]),
        );
        await ensureReferenceData(c, recordingLogger());
        expect(await municipalities(ctx)).toHaveLength(2);
      });

      it('reports a folder without the file and a folder that does not exist', async () => {
        await expect(importCsuFolder(ctx, dir())).rejects.toThrow(/holds no VAZ0043_0101_CS.csv/);
        await expect(importCsuFolder(ctx, join(dir(), 'missing'))).rejects.toThrow(/does not exist/);
      });
    });

    describe('with no folder (the plain start)', () => {
      beforeEach(async () => {
        t = await createTestDb(kind);
        ctx = { config: t.config, db: t.db, version: 'test' };
      });

      it('loads the built-in codebook: every municipality and district, no warning', async () => {
        const log = recordingLogger();
        const inUse = await ensureReferenceData(ctx, log);
        expect(await ctx.db.kysely.selectFrom('districts').selectAll().execute()).toHaveLength(77);
        const rows = await municipalities(ctx);
        expect(rows).toHaveLength(ALL);
        expect(rows.find((m) => m.code === '554782')).toMatchObject({ name: 'Praha', long_name: 'Praha' });
        expect(rows.find((m) => m.code === '581879')).toMatchObject({ name: 'Kunštát', district: '40703' });
        expect(log.lines.filter((l) => l.level === 'warn' || l.level === 'error')).toEqual([]);
        expect(inUse).toMatchObject({
          kind: 'builtin',
          snapshot: 'spring 2024',
          municipalities: ALL,
          districts: 77,
          current: true,
        });
        expect(describeCodebook(inUse)).toMatch(
          /^built-in \(ČSÚ snapshot of spring 2024\), loaded \d{4}-\d\d-\d\d \d\d:\d\d UTC: 6258 municipalities, 77 districts$/,
        );

        const status = await referenceStatus(ctx);
        expect(status.countries).toBe(251);
        for (const name of CODE_LIST_NAMES) expect(status.codeLists[name]).toBeGreaterThan(0);
      });

      it('writes nothing at the next start, and replaces an older built-in version', async () => {
        await ensureReferenceData(ctx, recordingLogger());
        const before = await ctx.db.kysely.selectFrom('reference_imports').selectAll().execute();
        await ensureReferenceData(ctx, recordingLogger());
        expect(await ctx.db.kysely.selectFrom('reference_imports').selectAll().execute()).toEqual(before);

        // As if the database had been filled by an older version of the portal.
        const older = JSON.stringify({
          kind: 'builtin',
          origin: 'x',
          sha256: 'old',
          districts: 77,
          municipalities: 40,
        });
        await ctx.db.kysely
          .updateTable('reference_imports')
          .set({ detail: older })
          .where('source', '=', 'csu')
          .execute();
        await ctx.db.kysely.deleteFrom('municipalities').where('code', '=', '581879').execute();
        expect((await codebookInUse(ctx))?.current).toBe(false);
        expect(describeCodebook(await codebookInUse(ctx))).toMatch(/older built-in version/);
        const log = recordingLogger();
        await ensureReferenceData(ctx, log);
        expect(log.lines.map((l) => l.msg)).toContain('built-in ČSÚ codebook loaded');
        expect(await municipalities(ctx)).toHaveLength(ALL);
        expect((await codebookInUse(ctx))?.current).toBe(true);
      });

      it('keeps an imported codebook at the next start without a folder', async () => {
        const d = dir();
        writeFileSync(join(d, 'VAZ0043_0101_CS.csv'), csuCsv([['900001', 'Jedna', '10001', 'Alfa']]));
        await importCsuFolder(ctx, d);
        const inUse = await ensureReferenceData(ctx, recordingLogger());
        expect(await municipalities(ctx)).toHaveLength(1);
        expect(inUse).toMatchObject({ kind: 'folder', municipalities: 1 });
        expect(describeCodebook(inUse)).toMatch(
          /^from folder .*VAZ0043_0101_CS\.csv, imported .* UTC: 1 municipalities/,
        );
      });
    });

    describe('download from ČSÚ', () => {
      let server: Server;
      let base: string;
      let hang = false;
      const csv = csuCsv([
        ['900001', 'Stažená', '10001', 'Alfa'],
        ['900002', 'Druhá', '10001', 'Alfa'],
      ]);

      beforeAll(async () => {
        // Stands in for ČSÚ: a catalogue record naming the iSMS export (XML by default) and the export.
        server = createServer((req, res) => {
          if (hang) return; // never answers
          if (req.url?.startsWith('/catalogue')) {
            res.setHeader('content-type', 'application/json');
            res.end(
              JSON.stringify({
                result: {
                  resources: [
                    { url: `${base}/iSMS/do_cis_export?kodcis=43&typdat=1&format=0`, format: 'text/xml' },
                  ],
                },
              }),
            );
          } else if (req.url?.startsWith('/iSMS/do_cis_export') && req.url.includes('format=2')) {
            res.setHeader('content-type', 'text/csv');
            res.end(csv);
          } else {
            res.statusCode = 404;
            res.end();
          }
        });
        await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
        base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      });
      afterAll(async () => {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      });
      beforeEach(async () => {
        hang = false;
        t = await createTestDb(kind, { ROS_REFERENCE_DOWNLOAD: 'true' });
        ctx = { config: t.config, db: t.db, version: 'test' };
      });

      it('finds the CSV through the catalogue and imports it at start', async () => {
        const log = recordingLogger();
        await ensureReferenceData(ctx, log, { catalogueUrl: `${base}/catalogue` });
        expect((await municipalities(ctx)).map((m) => m.name).sort()).toEqual(['Druhá', 'Stažená']);
        expect(log.lines.map((l) => l.msg)).toContain('ČSÚ codebook downloaded');
        const row = await ctx.db.kysely
          .selectFrom('reference_imports')
          .selectAll()
          .where('source', '=', 'csu')
          .executeTakeFirst();
        expect(JSON.parse(row?.detail ?? '{}')).toMatchObject({ kind: 'download', municipalities: 2 });
      });

      it('gives up fast when ČSÚ does not answer and uses the built-in codebook', async () => {
        hang = true;
        const log = recordingLogger();
        // The download never answers: only the 300 ms timeout can end this call (the test's own
        // timeout would fail it otherwise), and the warning says that it did.
        await ensureReferenceData(ctx, log, { catalogueUrl: `${base}/catalogue`, timeoutMs: 300 });
        expect(log.lines.some((l) => l.level === 'warn' && /no answer within 300 ms/.test(l.msg))).toBe(true);
        expect(await municipalities(ctx)).toHaveLength(ALL);
      });

      it('reports an unreachable address and a wrong answer as import errors', async () => {
        await expect(
          importCsuDownload(ctx, { catalogueUrl: 'http://127.0.0.1:1/x', timeoutMs: 2000 }),
        ).rejects.toThrow(/cannot download the ČSÚ codebook/);
        await expect(importCsuDownload(ctx, { catalogueUrl: `${base}/nothing` })).rejects.toThrow(/HTTP 404/);
      });
    });
  });
}

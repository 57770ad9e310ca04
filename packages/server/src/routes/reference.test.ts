import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import zlib, { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.js';
import type { AppContext } from '../context.js';
import { negotiateEncoding } from '../http/encodedBody.js';
import { ensureReferenceData, importCsuFolder, loadBuiltin } from '../reference/index.js';
import { csuCsv, recordingLogger } from '../reference/testing.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { etagMatches } from './reference.js';

interface Named {
  code: string;
  name_cz: string;
  name_en: string;
}

for (const kind of await testDbKinds()) {
  describe(`reference lists (${kind})`, () => {
    let t: TestDb;
    let ctx: AppContext;
    let app: FastifyInstance;

    beforeAll(async () => {
      // The plain start: the built-in codebook.
      t = await createTestDb(kind);
      ctx = { config: t.config, db: t.db, version: 'test' };
      await ensureReferenceData(ctx, recordingLogger());
      // The lists look for a new import at every request here, not every 30 s: the import below
      // stands for one by ros-admin or another instance.
      app = await buildApp(ctx, { serviceOptions: { referenceCheckMs: 0 } });
    });
    afterAll(async () => {
      await app?.close();
      await t?.cleanup();
    });

    const get = async <T>(path: string) => {
      const res = await app.inject({ method: 'GET', url: `/api/ros/${path}` });
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      return { res, body: res.json() as T };
    };

    it('countries: ISO alpha-2 code, ČSÚ code, Czech and English names, "##" included, Czech order', async () => {
      const { body } = await get<Array<Named & { code_csu: string }>>('countries');
      expect(body).toHaveLength(251);
      expect(body.find((c) => c.code === 'CZ')).toEqual({
        code: 'CZ',
        code_csu: '203',
        name_cz: 'Česká republika',
        name_en: 'Czech Republic',
      });
      expect(body.find((c) => c.code === 'DE')).toMatchObject({
        code_csu: '276',
        name_cz: 'Německo',
        name_en: 'Germany',
      });
      expect(body.find((c) => c.code === '##')).toEqual({
        code: '##',
        code_csu: '000',
        name_cz: 'Bez státní příslušnosti / neuvedeno',
        name_en: 'Stateless / not specified',
      });
      for (const c of body) {
        expect(c.code_csu).toMatch(/^\d{3}$/);
        expect(Object.keys(c).sort()).toEqual(['code', 'code_csu', 'name_cz', 'name_en']);
      }
      const cs = new Intl.Collator('cs');
      const names = body.map((c) => c.name_cz);
      expect(names).toEqual([...names].sort(cs.compare));
      // Czech order puts "Ch" after "H": Chorvatsko after Honduras.
      expect(names.indexOf('Chorvatsko')).toBeGreaterThan(names.indexOf('Honduras'));
    });

    it('countries?lang=en: the same countries in English order; another lang is a 400', async () => {
      const { body } = await get<Named[]>('countries?lang=en');
      expect(body).toHaveLength(251);
      const names = body.map((c) => c.name_en);
      expect(names).toEqual([...names].sort(new Intl.Collator('en').compare));
      const bad = await app.inject({ method: 'GET', url: '/api/ros/countries?lang=de' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ error: { code: 'INVALID_REQUEST' } });
    });

    it('districts: 77 with code and name in Czech order', async () => {
      const { body } = await get<Array<{ code: string; name: string }>>('districts');
      expect(body).toHaveLength(77);
      expect(body.find((d) => d.code === '40924')).toEqual({ code: '40924', name: 'Praha' });
      expect(body[0]).toEqual({ code: '40169', name: 'Benešov' });
      const names = body.map((d) => d.name);
      expect(names).toEqual([...names].sort(new Intl.Collator('cs').compare));
    });

    it('municipalities: 6258 with code, long_name, district, name, unique long_name, Czech order', async () => {
      const { body } =
        await get<Array<{ code: string; long_name: string; district: string; name: string }>>(
          'municipalities',
        );
      expect(body).toHaveLength(6258);
      expect(Object.keys(body[0] ?? {})).toEqual(['code', 'long_name', 'district', 'name']);
      expect(new Set(body.map((m) => m.long_name)).size).toBe(6258);
      const novaVes = body.filter((m) => m.name === 'Nová Ves');
      expect(novaVes).toHaveLength(14);
      expect(novaVes.every((m) => /^Nová Ves \(.+\)$/.test(m.long_name))).toBe(true);
      expect(body.find((m) => m.code === '554782')).toEqual({
        code: '554782',
        long_name: 'Praha',
        district: '40924',
        name: 'Praha',
      });
      const longNames = body.map((m) => m.long_name);
      expect(longNames).toEqual([...longNames].sort(new Intl.Collator('cs').compare));
    });

    it('delivery, duplicate, document, verification and activity types', async () => {
      const delivery = (await get<Named[]>('delivery-types')).body;
      expect(delivery.map((d) => d.code)).toEqual(['DATOVKOU', 'EMAIL', 'POSTA', 'OSOBNE']);
      expect(delivery[0]).toEqual({
        code: 'DATOVKOU',
        name_cz: 'Do datové schránky',
        name_en: 'To a data mailbox',
      });

      const duplicate = (await get<Array<Named & { disabled: boolean }>>('duplicate-types')).body;
      expect(duplicate).toEqual([
        { code: 'POSKOZENI', name_cz: 'Poškození dokladu', name_en: 'Damaged document', disabled: false },
        {
          code: 'ODCIZENI',
          name_cz: 'Ztráta nebo odcizení dokladu',
          name_en: 'Lost or stolen document',
          disabled: false,
        },
      ]);

      const documents = (await get<Named[]>('document-types')).body;
      expect(documents).toEqual([
        { code: 'OP_CR', name_cz: 'Občanský průkaz ČR', name_en: 'Czech identity card' },
        { code: 'PAS', name_cz: 'Cestovní pas', name_en: 'Passport' },
      ]);

      const verification = (await get<Named[]>('verification-types')).body;
      expect(verification[0]?.code).toBe('OSVEDCENI1');
      expect(verification.map((v) => v.code)).toEqual(['OSVEDCENI1', 'OSVEDCENI2', 'OSVEDCENI3']);

      const activity = (await get<Named[]>('activity-types')).body;
      expect(activity).toEqual([
        { code: '1', name_cz: 'Zaměstnání', name_en: 'Employment' },
        { code: '2', name_cz: 'Studium', name_en: 'Education' },
        { code: '3', name_cz: 'Jiné', name_en: 'Other' },
      ]);
      for (const list of [delivery, documents, verification, activity]) {
        for (const item of list) expect(Object.keys(item).sort()).toEqual(['code', 'name_cz', 'name_en']);
      }
    });

    it('dial codes: +420 first, unique codes, the rest in Czech order', async () => {
      const { body } = await get<Named[]>('dial-codes');
      expect(body[0]).toEqual({ code: '+420', name_cz: 'Česká republika', name_en: 'Czech Republic' });
      expect(body.map((d) => d.code)).toEqual(
        expect.arrayContaining(['+421', '+49', '+43', '+48', '+44', '+1']),
      );
      expect(new Set(body.map((d) => d.code)).size).toBe(body.length);
      for (const d of body) expect(d.code).toMatch(/^\+\d{1,3}$/);
      const rest = body.slice(1).map((d) => d.name_cz);
      expect(rest).toEqual([...rest].sort(new Intl.Collator('cs').compare));
    });

    it('sends a strong ETag and an hour of caching, and 304 to a matching If-None-Match', async () => {
      const first = await app.inject({ method: 'GET', url: '/api/ros/municipalities' });
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
      expect(first.headers['cache-control']).toBe('public, max-age=3600');
      const again = await app.inject({ method: 'GET', url: '/api/ros/municipalities' });
      expect(again.headers.etag).toBe(etag);

      const cached = await app.inject({
        method: 'GET',
        url: '/api/ros/municipalities',
        headers: { 'if-none-match': etag },
      });
      expect(cached.statusCode).toBe(304);
      expect(cached.body).toBe('');
      expect(cached.headers.etag).toBe(etag);

      const other = await app.inject({
        method: 'GET',
        url: '/api/ros/municipalities',
        headers: { 'if-none-match': '"something-else"' },
      });
      expect(other.statusCode).toBe(200);
      // Each list has its own tag.
      const districts = await app.inject({ method: 'GET', url: '/api/ros/districts' });
      expect(districts.headers.etag).not.toBe(etag);
    });

    it('compresses the municipalities with gzip and brotli', async () => {
      const plain = await app.inject({ method: 'GET', url: '/api/ros/municipalities' });
      const gz = await app.inject({
        method: 'GET',
        url: '/api/ros/municipalities',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
      expect(gunzipSync(gz.rawPayload).toString('utf8')).toBe(plain.body);

      const br = await app.inject({
        method: 'GET',
        url: '/api/ros/municipalities',
        headers: { 'accept-encoding': 'br' },
      });
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);
      expect(String(gz.headers.vary)).toMatch(/accept-encoding/i);
    });

    it('compresses a list once per version, not on every call (issue 21)', async () => {
      // Per call compression goes through these (as @fastify/compress does): never here.
      const spies = [
        vi.spyOn(zlib, 'createBrotliCompress'),
        vi.spyOn(zlib, 'brotliCompressSync'),
        vi.spyOn(zlib, 'createGzip'),
        vi.spyOn(zlib, 'gzipSync'),
      ];
      try {
        const bodies = new Set<string>();
        for (let i = 0; i < 5; i++) {
          for (const encoding of ['br', 'gzip, deflate, br', 'gzip']) {
            const r = await app.inject({
              url: '/api/ros/municipalities',
              headers: { 'accept-encoding': encoding },
            });
            expect(r.headers['content-encoding']).toBe(encoding === 'gzip' ? 'gzip' : 'br');
            bodies.add(r.rawPayload.toString('base64'));
          }
        }
        // One compressed body per encoding, the same bytes every time.
        expect(bodies.size).toBe(2);
        for (const spy of spies) expect(spy).not.toHaveBeenCalled();
        const list = await app.services.referenceLists.get('municipalities');
        expect(await list.encoded('br')).toBe(await list.encoded('br'));
      } finally {
        vi.restoreAllMocks();
      }
      // No encoding the client takes: as it is.
      const none = await app.inject({
        url: '/api/ros/municipalities',
        headers: { 'accept-encoding': 'br;q=0, identity' },
      });
      expect(none.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(none.body)).toHaveLength(6258);
    });

    it('deflate and no Accept-Encoding cost no more than br: every encoding made once (issue 33 item 2)', async () => {
      // Per call compression goes through these (as @fastify/compress did for deflate): never here.
      const spies = [
        vi.spyOn(zlib, 'createDeflate'),
        vi.spyOn(zlib, 'deflateSync'),
        vi.spyOn(zlib, 'createGzip'),
        vi.spyOn(zlib, 'createBrotliCompress'),
      ];
      // Sending the 531 KB list as a string measures it and encodes it on every call.
      const measured = vi.spyOn(Buffer, 'byteLength');
      const list = await app.services.referenceLists.get('municipalities');
      try {
        for (const encoding of ['deflate', 'br;q=0, gzip;q=0, deflate', undefined, 'identity']) {
          const bodies = new Set<string>();
          for (let i = 0; i < 3; i++) {
            const r = await app.inject({
              url: '/api/ros/municipalities',
              headers: encoding === undefined ? {} : { 'accept-encoding': encoding },
            });
            expect(r.statusCode).toBe(200);
            const deflated = encoding?.includes('deflate');
            expect(r.headers['content-encoding']).toBe(deflated ? 'deflate' : undefined);
            const text = (deflated ? zlib.inflateSync(r.rawPayload) : r.rawPayload).toString('utf8');
            expect(JSON.parse(text)).toHaveLength(6258);
            bodies.add(r.rawPayload.toString('base64'));
          }
          expect(bodies.size).toBe(1);
        }
        for (const spy of spies) expect(spy).not.toHaveBeenCalled();
        expect(measured.mock.calls.filter(([v]) => typeof v === 'string' && v.length > 100_000)).toEqual([]);
        // The very Buffer is sent each time.
        expect(await list.encoded('deflate')).toBe(await list.encoded('deflate'));
        expect(await list.encoded('identity')).toBe(await list.encoded('identity'));
      } finally {
        vi.restoreAllMocks();
      }
    });

    it('/api/docs: each encoding made once, and it decodes to the document', async () => {
      const spies = [
        vi.spyOn(zlib, 'createDeflate'),
        vi.spyOn(zlib, 'createGzip'),
        vi.spyOn(zlib, 'createBrotliCompress'),
      ];
      try {
        const plain = await app.inject({ url: '/api/docs' });
        const decode: Record<string, (b: Buffer) => Buffer> = {
          br: brotliDecompressSync,
          gzip: gunzipSync,
          deflate: zlib.inflateSync,
        };
        for (const encoding of ['br', 'gzip', 'deflate']) {
          for (let i = 0; i < 2; i++) {
            const r = await app.inject({ url: '/api/docs', headers: { 'accept-encoding': encoding } });
            expect(r.headers['content-encoding']).toBe(encoding);
            expect(decode[encoding]?.(r.rawPayload).toString('utf8')).toBe(plain.body);
          }
        }
        expect(JSON.parse(plain.body).openapi).toMatch(/^3\./);
        for (const spy of spies) expect(spy).not.toHaveBeenCalled();
      } finally {
        vi.restoreAllMocks();
      }
    });

    it('serves the new lists after an import, with a new ETag', async () => {
      const before = await app.inject({ method: 'GET', url: '/api/ros/districts' });
      const dir = mkdtempSync(join(tmpdir(), 'ros-ref-'));
      try {
        writeFileSync(
          join(dir, 'VAZ0043_0101_CS.csv'),
          csuCsv([['900001', 'Zkušební', '10001', 'Zkušební okres']]),
        );
        await importCsuFolder(ctx, dir);
        const after = await app.inject({ method: 'GET', url: '/api/ros/districts' });
        expect(after.json()).toEqual([{ code: '10001', name: 'Zkušební okres' }]);
        expect(after.headers.etag).not.toBe(before.headers.etag);
        const stale = await app.inject({
          method: 'GET',
          url: '/api/ros/districts',
          headers: { 'if-none-match': before.headers.etag as string },
        });
        expect(stale.statusCode).toBe(200);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await loadBuiltin(ctx);
      }
    });
  });
}

describe('etagMatches', () => {
  it('matches one of a list, a weak form of the tag and "*"', () => {
    expect(etagMatches('"a", "b"', '"b"')).toBe(true);
    expect(etagMatches('W/"b"', '"b"')).toBe(true);
    expect(etagMatches('*', '"b"')).toBe(true);
    expect(etagMatches('"c"', '"b"')).toBe(false);
    expect(etagMatches(undefined, '"b"')).toBe(false);
  });
});

describe('negotiateEncoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['deflate', 'deflate'],
    ['br;q=0, gzip;q=0, deflate', 'deflate'],
    ['gzip;q=0.5, deflate', 'deflate'],
    ['deflate, gzip', 'gzip'],
    ['*', 'br'],
    ['br;q=0, *;q=0.1', 'gzip'],
    ['br;q=0, identity', 'identity'],
    ['identity;q=0, *;q=0', 'identity'],
    ['zstd', 'identity'],
    ['GZIP;Q=0.9, BR;Q=0.8', 'gzip'],
  ])('%s -> %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe('ROS_RATE_LIMIT_LISTS: the lists and /api/docs per client address (issue 33 item 2)', () => {
  it('answers 429 RATE_LIMITED past the limit, counting lists and /api/docs together, per address', async () => {
    const t = await createTestDb('sqlite', { ROS_RATE_LIMIT_LISTS: '4' });
    const ctx: AppContext = { config: t.config, db: t.db, version: 'test' };
    await ensureReferenceData(ctx, recordingLogger());
    const app = await buildApp(ctx);
    try {
      const get = (url: string, remoteAddress = '198.51.100.60') => app.inject({ url, remoteAddress });
      const statuses = [
        (await get('/api/ros/municipalities')).statusCode,
        (await get('/api/ros/districts')).statusCode,
        (await get('/api/docs')).statusCode,
        (await get('/api/ros/countries')).statusCode,
      ];
      expect(statuses).toEqual([200, 200, 200, 200]);
      const limited = await get('/api/ros/municipalities');
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await get('/api/docs')).statusCode).toBe(429);
      expect((await get('/api/docs', '198.51.100.61')).statusCode).toBe(200);
    } finally {
      await app.close();
      await t.cleanup();
    }
  });
});

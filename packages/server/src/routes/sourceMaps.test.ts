import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { createTestDb } from '../test/databases.js';

/**
 * Issue 21: 11 of 12 built JavaScript files named a `.map` file even when the server did not
 * serve maps. The build names no map in any file (vite.config.ts, sourcemap 'hidden'); the server
 * names it in a SourceMap header only when it serves maps (ROS_SOURCE_MAPS). On the built app.
 */

const WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));
const assets = join(WEB_DIST, 'assets');

describe('source maps of the built web app', () => {
  it('no built script names a map, compressed copies included', () => {
    expect(existsSync(assets), 'build the web app first (npm run build)').toBe(true);
    const scripts = readdirSync(assets).filter((f) => /\.js(\.br|\.gz)?$/.test(f));
    expect(scripts.filter((f) => f.endsWith('.js')).length).toBeGreaterThan(5);
    for (const f of scripts) {
      const raw = readFileSync(join(assets, f));
      const text = (
        f.endsWith('.br') ? brotliDecompressSync(raw) : f.endsWith('.gz') ? gunzipSync(raw) : raw
      ).toString('utf8');
      expect(text, f).not.toMatch(/sourceMappingURL/);
    }
    // The maps are still built, for a server that serves them.
    expect(readdirSync(assets).some((f) => f.endsWith('.js.map'))).toBe(true);
  });

  for (const served of [true, false]) {
    it(`ROS_SOURCE_MAPS=${served}: the SourceMap header ${served ? 'names the map' : 'is absent, the map 404'}`, async () => {
      const t = await createTestDb('sqlite', { ROS_WEB_DIR: WEB_DIST, ROS_SOURCE_MAPS: String(served) });
      const app = await buildApp({ config: t.config, db: t.db, version: 'test' });
      try {
        const script = readdirSync(assets).find(
          (f) => f.endsWith('.js') && existsSync(join(assets, `${f}.map`)),
        );
        for (const encoding of ['identity', 'br', 'gzip']) {
          const r = await app.inject({ url: `/assets/${script}`, headers: { 'accept-encoding': encoding } });
          expect(r.statusCode).toBe(200);
          expect(r.headers.sourcemap).toBe(served ? `${script}.map` : undefined);
        }
        expect((await app.inject({ url: `/assets/${script}.map` })).statusCode).toBe(served ? 200 : 404);
      } finally {
        await app.close();
        await t.cleanup();
      }
    });
  }
});

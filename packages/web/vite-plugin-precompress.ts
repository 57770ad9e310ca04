import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** What is worth compressing: text assets of at least 1 kB (the server's on-the-fly threshold). */
const COMPRESSIBLE = /\.(js|css|html|json|svg)$/;
export const MIN_BYTES = 1024;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '.vite') yield* files(path);
    } else if (COMPRESSIBLE.test(entry.name)) yield path;
  }
}

/**
 * Writes `file.br` (brotli, quality 11) and `file.gz` (gzip, level 9) beside every text asset of
 * the build: the server sends them as they are (@fastify/static `preCompressed`,
 * packages/server/src/routes/web.ts), so the browser gets the smallest encoding it accepts
 * without the server compressing per request (issue 14).
 */
export function precompressPlugin(): Plugin {
  let outDir = '';
  return {
    name: 'ros-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const work = [...files(outDir)]
        .filter((path) => statSync(path).size >= MIN_BYTES)
        .map(async (path) => {
          const data = readFileSync(path);
          const [br, gzipped] = await Promise.all([
            brotli(data, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 11,
                [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
            gz(data, { level: 9 }),
          ]);
          writeFileSync(`${path}.br`, br);
          writeFileSync(`${path}.gz`, gzipped);
        });
      await Promise.all(work);
    },
  };
}

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { mergeTranslationFiles, type TranslationTree } from './src/i18n/merge.ts';

/** Reads and merges src/i18n/{lang}/*.json; throws on a duplicate key or bad JSON. */
export function mergeLanguageDir(i18nDir: string, lang: string): TranslationTree {
  const dir = join(i18nDir, lang);
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const file = `${lang}/${name}`;
      let data: unknown;
      try {
        data = JSON.parse(readFileSync(join(dir, name), 'utf8'));
      } catch (error) {
        throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
      }
      return { file, data };
    });
  return mergeTranslationFiles(files);
}

/**
 * Emits /assets/i18n/{lang}.json (all feature files of a language merged) into the build,
 * and serves the same from the dev server. A key defined twice fails the build.
 */
export function i18nMergePlugin(options: { dir: string; langs: readonly string[] }): Plugin {
  return {
    name: 'ros-i18n-merge',
    buildStart() {
      for (const lang of options.langs) {
        for (const name of readdirSync(join(options.dir, lang)))
          this.addWatchFile(join(options.dir, lang, name));
      }
    },
    generateBundle() {
      for (const lang of options.langs) {
        let merged: TranslationTree;
        try {
          merged = mergeLanguageDir(options.dir, lang);
        } catch (error) {
          this.error((error as Error).message);
        }
        this.emitFile({
          type: 'asset',
          fileName: `assets/i18n/${lang}.json`,
          source: JSON.stringify(merged),
        });
      }
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const match = /^\/assets\/i18n\/([a-z]{2})\.json(?:\?.*)?$/.exec(req.url ?? '');
        const lang = match?.[1];
        if (!lang || !options.langs.includes(lang)) return next();
        try {
          const body = JSON.stringify(mergeLanguageDir(options.dir, lang));
          res.setHeader('Content-Type', 'application/json; charset=utf-8');
          res.setHeader('Cache-Control', 'no-store');
          res.end(body);
        } catch (error) {
          res.statusCode = 500;
          res.end((error as Error).message);
        }
      });
    },
  };
}

import { relative } from 'node:path';
import type { Plugin, Rollup } from 'vite';

type OutputChunk = Rollup.OutputChunk;

/** The name of the file the build writes beside index.html, read by the server. */
export const PAGE_ASSETS_FILE = 'page-assets.json';

/**
 * Writes `dist/page-assets.json`: for each page path with a chunk of its own (`sources`, from
 * src/pageSources.ts), the files that chunk needs beyond the first one: the chunk, what it imports
 * statically, and their stylesheets. The server announces them with the page (issue 29). A
 * source that is not a chunk of its own in the build fails the build: the list and App.tsx's
 * `import()` calls must agree.
 */
export function pageAssetsPlugin(sources: Record<string, readonly string[]>): Plugin {
  let root = '';
  return {
    name: 'ros-page-assets',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((o): o is OutputChunk => o.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const entry = chunks.find((c) => c.isEntry);
      // What the first chunk already brings is not announced again.
      const first = new Set<string>();
      const closure = (chunk: OutputChunk, into: Set<string>) => {
        if (into.has(chunk.fileName)) return;
        into.add(chunk.fileName);
        for (const css of chunk.viteMetadata?.importedCss ?? []) into.add(css);
        for (const imported of chunk.imports) {
          const next = byFile.get(imported);
          if (next) closure(next, into);
        }
      };
      if (entry) closure(entry, first);
      const out: Record<string, string[]> = {};
      for (const [path, modules] of Object.entries(sources)) {
        const files = new Set<string>();
        for (const module of modules) {
          const chunk = chunks.find(
            (c) => c.isDynamicEntry && c.facadeModuleId && relative(root, c.facadeModuleId) === module,
          );
          if (!chunk) throw new Error(`page assets: ${module} (${path}) is not a page chunk of the build`);
          closure(chunk, files);
        }
        out[path] = [...files].filter((f) => !first.has(f)).sort();
      }
      this.emitFile({
        type: 'asset',
        fileName: PAGE_ASSETS_FILE,
        source: `${JSON.stringify(out, null, 2)}\n`,
      });
    },
  };
}

import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { PAGE_SOURCES } from './src/pageSources.ts';
import { i18nMergePlugin } from './vite-plugin-i18n.ts';
import { pageAssetsPlugin } from './vite-plugin-page-assets.ts';
import { precompressPlugin } from './vite-plugin-precompress.ts';

export default defineConfig({
  plugins: [
    react(),
    i18nMergePlugin({ dir: fileURLToPath(new URL('./src/i18n', import.meta.url)), langs: ['cs', 'en'] }),
    // .br and .gz beside each asset, sent as they are by the server (routes/web.ts).
    precompressPlugin(),
    // dist/page-assets.json: what each page's own chunk needs, announced by the server (issue 29).
    pageAssetsPlugin(PAGE_SOURCES),
  ],
  resolve: {
    alias: { '@ros/domain': fileURLToPath(new URL('../domain/src/index.ts', import.meta.url)) },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  preview: {
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Maps are written, but no file names its map: whether maps are served is a setting of the
    // server (ROS_SOURCE_MAPS), which names the map in a SourceMap header only when it serves
    // them (server routes/web.ts; issue 21: 11 of 12 files named a map that was not served).
    sourcemap: 'hidden',
    // dist/.vite/manifest.json: which chunks each page loads, read by scripts/bundle-budget.mjs.
    manifest: true,
    // One chunk for what every page shares (React, the router, i18next, the shell's small parts,
    // the components the pages share): Rolldown's automatic splitting made a separate sub-kB chunk
    // of TextLinks (check and the form), a request whose headers cost more than its bytes (issue
    // 14: the check page's JavaScript on the wire). `minShareCount: 2` keeps anything only one
    // page uses out of it; the bundle check (scripts/bundle-budget.mjs) counts what each page loads.
    // The domain's request-status helpers (the status page and the form's success view) go there
    // too: as a chunk of their own (0.5 kB) they cost the status page a request and its headers.
    rolldownOptions: {
      // The portal's page, and the stylesheet of the authority's console, whose pages the server
      // makes (issue 38, packages/server/src/console/pages): found by the server in the manifest.
      input: {
        index: fileURLToPath(new URL('./index.html', import.meta.url)),
        console: fileURLToPath(new URL('./src/console/console.css', import.meta.url)),
      },
      // Rolldown's [PLUGIN_TIMINGS] warning (a plugin took a share of the build time) printed nine
      // yellow lines on a cold first build that looked like a failure (issue 28): the time is the
      // react plugin's and the i18n merge's first run, nothing to act on.
      checks: { bundlerTimings: false, pluginTimings: false },
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'shared',
              test: /[\\/]src[\\/](shell|api|components)[\\/]|[\\/]domain[\\/]src[\\/](limits|formCodes|uiTiming|requestStatus)|node_modules[\\/](react|react-router|i18next|react-i18next|use-sync-external-store)[\\/]/,
              minShareCount: 2,
            },
          ],
        },
      },
    },
  },
});

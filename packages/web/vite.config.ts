import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { i18nMergePlugin } from './vite-plugin-i18n.ts';
import { precompressPlugin } from './vite-plugin-precompress.ts';

export default defineConfig({
  plugins: [
    react(),
    i18nMergePlugin({ dir: fileURLToPath(new URL('./src/i18n', import.meta.url)), langs: ['cs', 'en'] }),
    // .br and .gz beside each asset, sent as they are by the server (routes/web.ts).
    precompressPlugin(),
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
    sourcemap: true,
    // dist/.vite/manifest.json: which chunks each page loads, read by scripts/bundle-budget.mjs.
    manifest: true,
    // One chunk for what every page shares (React, the router, i18next, the shell's small parts,
    // the components the pages share): Rolldown's automatic splitting made a separate sub-kB chunk
    // of TextLinks (check and the form), a request whose headers cost more than its bytes (issue
    // 14: the check page's JavaScript on the wire). `minShareCount: 2` keeps anything only one
    // page uses out of it; the bundle check (scripts/bundle-budget.mjs) counts what each page loads.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'shared',
              test: /[\\/]src[\\/](shell|api|components)[\\/]|[\\/]domain[\\/]src[\\/]limits|node_modules[\\/](react|react-router|i18next|react-i18next|use-sync-external-store)[\\/]/,
              minShareCount: 2,
            },
          ],
        },
      },
    },
  },
});

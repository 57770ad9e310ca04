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
  },
});

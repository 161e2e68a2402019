import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { constants } from 'node:zlib';
import { pagePreloadsPlugin } from './build/page-preloads';

export default defineConfig({
  plugins: [
    react(),
    pagePreloadsPlugin(),
    // Brotli and gzip copies of every text asset, made once at build at the highest levels, so
    // the server sends them by Accept-Encoding without compressing per request
    // (docs/performance.md, Assets).
    compression({
      include: /\.(js|mjs|css|html|svg|json|txt|map)$/i,
      threshold: 1024,
      skipIfLargerOrEqual: true,
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
    }),
  ],
  resolve: {
    // zod with jitless parsing, so it never probes for eval under the CSP (lib/zod-jitless.ts).
    alias: [
      {
        find: /^zod$/,
        replacement: fileURLToPath(new URL('src/lib/zod-jitless.ts', import.meta.url)),
      },
    ],
  },
  css: {
    preprocessorOptions: {
      scss: {
        // Bootstrap 5.3's Sass still uses @import and global functions; those deprecation
        // warnings are about its sources, not ours (styles/bootstrap.scss).
        quietDeps: true,
        silenceDeprecations: ['import', 'global-builtin', 'color-functions', 'if-function'],
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 300,
  },
});

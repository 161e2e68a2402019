import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  resolve: {
    // zod with jitless parsing, so it never probes for eval under the CSP (lib/zod-jitless.ts).
    alias: [
      {
        find: /^zod$/,
        replacement: fileURLToPath(new URL('src/lib/zod-jitless.ts', import.meta.url)),
      },
    ],
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

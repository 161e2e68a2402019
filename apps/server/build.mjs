// Bundles the server into dist/main.js, the standalone simulator into dist/simulator-main.js, the
// benchmark's WhatsApp fake into dist/whatsapp-fake-main.js and the worker threads' modules into
// dist/<name>.thread.js.
// npm packages stay external (installed beside it); the workspace contract package is
// TypeScript source and is bundled in.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((d) => !d.startsWith('@herald/'));

await build({
  // main.js is the app; simulator-main.js the simulator provider as its own process, and
  // whatsapp-fake-main.js the WhatsApp Cloud API fake as one (the delivery bench's). Each
  // worker thread's module (`*.thread.ts`) is an entry of its own, emitted beside main.js under
  // its file name: lib/worker-module.ts starts `<name>.thread.js` from there.
  entryPoints: [
    'src/main.ts',
    'src/simulator-main.ts',
    'src/whatsapp-fake-main.ts',
    { in: 'src/lib/scrypt.thread.ts', out: 'scrypt.thread' },
    { in: 'src/modules/backup/copy-worker.thread.ts', out: 'copy-worker.thread' },
  ],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  logLevel: 'warning',
});

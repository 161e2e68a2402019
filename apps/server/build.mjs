// Bundles the server into dist/main.js and the standalone simulator into dist/simulator-main.js.
// npm packages stay external (installed beside it); the workspace contract package is
// TypeScript source and is bundled in.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((d) => !d.startsWith('@herald/'));

await build({
  // main.js is the app; simulator-main.js the simulator provider as its own process.
  entryPoints: ['src/main.ts', 'src/simulator-main.ts'],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  logLevel: 'warning',
});

// `npm run dev`: the API with reload (tsx watch) and the Vite dev server, side by side.
import { spawn } from 'node:child_process';
import { ensureNodeModules, root } from './ensure.mjs';

ensureNodeModules();
const procs = [
  spawn('npm', ['run', 'dev', '-w', '@herald/server'], { cwd: root, stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', '@herald/web'], { cwd: root, stdio: 'inherit' }),
];
const stop = () => procs.forEach((p) => p.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread from a module file of its own, a `*.thread.ts` file named by its URL
 * beside the caller: `startModuleWorker(new URL('./x.thread.ts', import.meta.url))`.
 *
 * - In the bundle (build.mjs), each thread module is an entry point of its own, emitted beside
 *   main.js as `x.thread.js`: the caller's URL, taken relative to the bundle, names it once its
 *   `.ts` becomes `.js`.
 * - From the sources (vitest, `npm run dev` through tsx), the thread module is TypeScript. Node 20
 *   does not apply a loader named in a worker's `execArgv` (`--import tsx`) to the worker's own
 *   module, so the worker starts on ts-worker.mjs, which registers tsx's loader in that thread
 *   and then imports the module (given as the worker's last argument).
 */

/** This file runs from the sources (a `.ts` module), not from the bundle. */
const FROM_SOURCES = import.meta.url.endsWith('.ts');

export function startModuleWorker(module: URL, options: WorkerOptions = {}): Worker {
  if (!module.pathname.endsWith('.thread.ts')) {
    throw new Error(`a worker module is a *.thread.ts file: ${module.href}`);
  }
  if (!FROM_SOURCES) return new Worker(new URL(module.href.replace(/\.ts$/, '.js')), options);
  return new Worker(new URL('./ts-worker.mjs', import.meta.url), {
    ...options,
    argv: [...(options.argv ?? []), module.href],
  });
}

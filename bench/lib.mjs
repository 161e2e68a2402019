// Shared helpers for the bench: paths, gzip sizes, child processes and cleanup, formatting.
import { fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, openSync, closeSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const outRoot = path.join(root, 'bench', '.out');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** gzip size in bytes, zlib's default level (what a server compressing on the fly sends). */
export function gzSize(buf) {
  return gzipSync(buf).length;
}

export function gzFile(file) {
  return gzSize(readFileSync(file));
}

// ---- cleanup: every resource registers its undo; run in reverse order, also on error/signal.

const cleanups = [];

/** Registers an undo step; returns a function that runs it now (and unregisters it). */
export function onCleanup(fn) {
  const entry = { fn };
  cleanups.push(entry);
  return async () => {
    const i = cleanups.indexOf(entry);
    if (i >= 0) cleanups.splice(i, 1);
    await fn();
  };
}

let running = null;

/** Runs every registered undo step once; concurrent calls (a signal mid-run) share one pass. */
export function runCleanups() {
  running ??= (async () => {
    while (cleanups.length) {
      const { fn } = cleanups.pop();
      try {
        await fn();
      } catch (err) {
        console.error(`cleanup: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  })().finally(() => {
    running = null;
  });
  return running;
}

// ---- processes

/**
 * A free loopback port and whether a pid lives: the server's own helpers (the embedded
 * PostgreSQL's), loaded through tsx as the bench workers are, so the two cannot drift.
 */
const postgresServer = await tsImport('../apps/server/src/db/postgres-server.ts', import.meta.url);
export const { freePort, isAlive } = postgresServer;

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts `node <args>` with its output in `logFile`. The returned handle's `stop()` sends
 * SIGTERM, waits up to `graceMs`, then SIGKILLs; it is also registered for cleanup.
 */
export function startNode(args, { env, logFile, graceMs = 40_000 }) {
  const fd = openSync(logFile, 'w');
  // BENCH_NODE_FLAGS: node flags for every process started, to look inside a run (for one,
  // `--trace-gc`, or `--cpu-prof --cpu-prof-dir=/tmp/prof`; node refuses these in NODE_OPTIONS).
  const flags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...flags, ...args], {
    cwd: root,
    env,
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const exited = once(child, 'exit');
  child.on('error', () => {});
  const alive = () => child.exitCode === null && child.signalCode === null;
  const stop = onCleanup(async () => {
    if (!alive()) return;
    child.kill('SIGTERM');
    let timer;
    const done = await Promise.race([
      exited.then(() => true),
      new Promise((r) => (timer = setTimeout(() => r(false), graceMs))),
    ]);
    clearTimeout(timer);
    if (!done && alive()) {
      console.error(`pid ${child.pid} did not stop within ${graceMs / 1000} s: SIGKILL`);
      child.kill('SIGKILL');
      await exited;
    }
  });
  return { child, alive, stop, logFile };
}

/** The last lines of a log file, for error messages. */
export function tail(file, lines = 25) {
  if (!existsSync(file)) return '';
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

/** Polls `url` until it answers 2xx; fails early when the process died. */
export async function waitReady(url, proc, timeoutMs) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (!proc.alive()) {
      throw new Error(
        `the process exited (${proc.child.exitCode ?? proc.child.signalCode}) before ${url} answered:\n${tail(proc.logFile)}`,
      );
    }
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s:\n${tail(proc.logFile)}`);
}

// ---- formatting

export const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
export const rps = (n) => (n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : n.toFixed(0)) + ' req/s';
export const ms = (n) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;
export const ratio = (n) => (Number.isFinite(n) ? `${n.toFixed(2)}x` : 'n/a');

/** A plain text table; `rows` are arrays of cells, the first row is the header. */
export function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c] ?? '').length)));
  const line = (r) =>
    r
      .map((cell, c) => String(cell ?? '').padEnd(widths[c]))
      .join('  ')
      .trimEnd();
  return [
    line(rows[0]),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.slice(1).map(line),
  ].join('\n');
}

/**
 * A TypeScript worker process (run through tsx) answering commands over IPC: `call(cmd, args)`
 * resolves with its command's result; `stop()` sends SIGTERM (the worker closes its pools and
 * stops PostgreSQL), then SIGKILL after 30 s.
 */
export function startWorker(file, name) {
  const child = fork(path.join(root, file), [], {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  const pending = new Map();
  let next = 0;
  child.on('message', (m) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.ok) p.resolve(m.result);
    else p.reject(new Error(`${name} worker, ${p.cmd}: ${m.error}`));
  });
  child.on('exit', (code, signal) => {
    for (const p of pending.values()) {
      p.reject(new Error(`the ${name} worker exited (${code ?? signal}) during ${p.cmd}`));
    }
    pending.clear();
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  const call = (cmd, args = {}) =>
    new Promise((resolve, reject) => {
      if (!alive()) return reject(new Error(`the ${name} worker is not running (${cmd})`));
      const id = ++next;
      pending.set(id, { resolve, reject, cmd });
      child.send({ id, cmd, args });
    });
  const stop = onCleanup(async () => {
    if (!alive()) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => alive() && child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  });
  return { call, stop };
}

/**
 * The built server (apps/server/dist) on an existing database `url` (a bench worker's), with a
 * JWT secret of its own (answered, so the worker can mint tokens), no web app and no first Admin;
 * resolves once /api/health answers. `env` adds settings; `port` pins the port (a restart that
 * others call back on).
 */
export async function startServerOn(url, dir, logName, { env = {}, port: pinned } = {}) {
  const secret = randomBytes(48).toString('base64url');
  const port = pinned ?? (await freePort());
  const server = startNode(['apps/server/dist/main.js'], {
    logFile: path.join(outRoot, logName),
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'server'),
      DATABASE_URL: url,
      JWT_SECRET: secret,
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
      LOG_LEVEL: 'warn',
      WEB_DIST: '',
      ...env,
    },
  });
  const base = `http://127.0.0.1:${port}`;
  await waitReady(`${base}/api/health`, server, 120_000);
  return { secret, base, server, port };
}

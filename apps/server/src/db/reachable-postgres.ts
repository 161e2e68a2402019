import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Binaries, Log, RunAs } from './postgres-server.js';

/**
 * As root, the embedded PostgreSQL runs as the `postgres` system user (it refuses root). That
 * user must reach its binaries (in node_modules) and its cluster (in DATA_DIR); in a clone under
 * /root or in a 0700 folder it reaches neither. Rather than fail, what it cannot reach is kept
 * under REACHABLE_HOME (docs/operations.md, One instance): the binaries copied once per version,
 * the cluster in a folder named after DATA_DIR. DATA_DIR/postgres.location records where, so the
 * same cluster is found again even if the clone moves.
 */
export const REACHABLE_HOME = '/var/lib/herald';

/** Whether `runAs` can reach `target` (search every folder on the way; run it, for a file). */
export function canReach(target: string, runAs: RunAs): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('test', ['-x', target], { ...runAs, stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });
}

/** A folder root owns that every user may enter. */
async function openFolder(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o755 });
  await fs.chmod(dir, 0o755);
}

/**
 * The binaries as `runAs` can run them: where they are, or a copy under `home`. The copy is
 * made under a temporary name and renamed, so a start killed mid-copy never leaves half of it.
 */
export async function reachableBinaries(
  bin: Binaries,
  runAs: RunAs,
  home: string,
  log: Log,
): Promise<Binaries> {
  if (await canReach(bin.postgres, runAs)) return bin;
  const native = path.dirname(path.dirname(bin.postgres));
  const stamp = createHash('sha256').update(native).digest('hex').slice(0, 12);
  const pkg = JSON.parse(
    await fs.readFile(path.join(native, '..', 'package.json'), 'utf8').catch(() => '{}'),
  ) as { version?: string };
  const target = path.join(home, `postgres-${pkg.version ?? stamp}`);
  const moved = (file: string) => path.join(target, path.relative(native, file));
  if (!existsSync(moved(bin.postgres))) {
    await openFolder(home);
    const temp = `${target}.${process.pid}.partial`;
    await fs.rm(temp, { recursive: true, force: true });
    await fs.cp(native, temp, { recursive: true, verbatimSymlinks: true });
    await fs.chmod(temp, 0o755);
    await fs.rm(target, { recursive: true, force: true });
    await fs.rename(temp, target);
  }
  log(
    `The 'postgres' system user cannot reach ${native}: the embedded PostgreSQL runs from ${target}`,
  );
  return { postgres: moved(bin.postgres), initdb: moved(bin.initdb), pg_ctl: moved(bin.pg_ctl) };
}

/**
 * Where the cluster of `dataDir` lives: `dataDir/postgres` when `runAs` can reach it (or no
 * user switch is needed), else a folder under `home`, recorded in `dataDir/postgres.location`.
 */
export async function clusterDir(
  dataDir: string,
  runAs: RunAs | undefined,
  home: string,
  log: Log,
): Promise<string> {
  const inPlace = path.join(dataDir, 'postgres');
  const marker = path.join(dataDir, 'postgres.location');
  const recorded = (await fs.readFile(marker, 'utf8').catch(() => '')).trim();
  if (recorded) {
    log(`The embedded PostgreSQL cluster of ${dataDir} is in ${recorded}`);
    return recorded;
  }
  if (!runAs || existsSync(path.join(inPlace, 'PG_VERSION')) || (await canReach(dataDir, runAs))) {
    return inPlace;
  }
  const real = await fs.realpath(dataDir);
  const name = createHash('sha256').update(real).digest('hex').slice(0, 16);
  const clusters = path.join(home, 'clusters');
  await openFolder(home);
  await openFolder(clusters);
  const cluster = path.join(clusters, name);
  await fs.writeFile(marker, `${cluster}\n`, { mode: 0o600 });
  log(
    `The 'postgres' system user cannot reach ${dataDir}: the embedded PostgreSQL cluster is kept in ${cluster} (recorded in ${marker})`,
  );
  return cluster;
}

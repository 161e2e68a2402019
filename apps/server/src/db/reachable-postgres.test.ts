import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs/promises';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { binaries, runAsUser, type Binaries } from './postgres-server.js';
import { canReach } from './reachable-postgres.js';

/**
 * As root, in a clone the `postgres` system user cannot enter (a 0700 folder, as mkdtemp makes
 * and as /root is), the embedded server still starts: the binaries and the cluster are kept
 * under a folder it can reach, and the next start finds the same cluster. Only root switches
 * users; CI runs as root.
 */
const asRoot = process.getuid?.() === 0;

const cleanup: string[] = [];
afterAll(async () => {
  for (const dir of cleanup) await fs.rm(dir, { recursive: true, force: true });
});

async function query(url: string, ...statements: string[]): Promise<unknown> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    let last: unknown;
    for (const sql of statements) last = (await client.query(sql)).rows[0];
    return last;
  } finally {
    await client.end();
  }
}

describe.runIf(asRoot)('the embedded server in a folder the postgres user cannot reach', () => {
  it('keeps binaries and cluster where it can, says where, and finds them again', async () => {
    const clone = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-clone-'));
    const home = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-pg-home-'));
    cleanup.push(clone, home);
    await fs.chmod(home, 0o755);
    expect((await fs.stat(clone)).mode & 0o777).toBe(0o700);

    // The package's binaries as a clone in that folder holds them.
    const real = await binaries();
    const native = path.dirname(path.dirname(real.postgres));
    const copied = path.join(clone, 'node_modules', 'pg', 'native');
    await fs.cp(native, copied, { recursive: true, verbatimSymlinks: true });
    await fs.copyFile(
      path.join(native, '..', 'package.json'),
      path.join(copied, '..', 'package.json'),
    );
    const inClone = (file: string) => path.join(copied, path.relative(native, file));
    const bin: Binaries = {
      postgres: inClone(real.postgres),
      initdb: inClone(real.initdb),
      pg_ctl: inClone(real.pg_ctl),
    };
    const runAs = runAsUser();
    if (!runAs) throw new Error('expected to switch users as root');
    expect(await canReach(bin.postgres, runAs)).toBe(false);

    const dataDir = path.join(clone, 'data');
    const logs: string[] = [];
    const start = () =>
      startEmbeddedPostgres({
        dataDir,
        binaries: bin,
        reachableHome: home,
        log: (m) => logs.push(m),
      });

    const first = await start();
    try {
      await query(first.url, 'CREATE TABLE kept (v int)', 'INSERT INTO kept VALUES (42)');
    } finally {
      await first.stop();
    }
    const cluster = (await fs.readFile(path.join(dataDir, 'postgres.location'), 'utf8')).trim();
    expect(cluster.startsWith(path.join(home, 'clusters'))).toBe(true);
    expect(logs.join('\n')).toContain(`the embedded PostgreSQL runs from ${home}`);
    expect(logs.join('\n')).toContain(`the embedded PostgreSQL cluster is kept in ${cluster}`);

    const second = await start();
    try {
      expect(await query(second.url, 'SELECT v FROM kept')).toEqual({ v: 42 });
    } finally {
      await second.stop();
    }
  }, 120_000);
});

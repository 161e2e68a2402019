import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../test/server-process.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres.js';

/**
 * The embedded PostgreSQL, killed with SIGKILL under the app, is started again on the same
 * port and data (the app's URL keeps working); when it cannot be (here its data is gone),
 * `onFailure` tells the app to exit so a supervisor starts all of it afresh.
 */
let dir: string;
let embedded: EmbeddedPostgres;
const logged: string[] = [];
const failures: Error[] = [];

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-embedded-restart-'));
  await fs.chmod(dir, 0o755);
  embedded = await startEmbeddedPostgres({
    dataDir: dir,
    log: (m) => logged.push(m),
    onFailure: (err) => failures.push(err),
    restartGiveUpMs: 3000,
  });
}, 120_000);
afterAll(async () => {
  await embedded?.stop();
  await fs.rm(dir, { recursive: true, force: true });
});

function postmasterPid(): number {
  return Number(readFileSync(path.join(dir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

describe('embedded PostgreSQL after a kill -9', () => {
  it('is started again on the same URL, with the data it had', async () => {
    const before = new pg.Client({ connectionString: embedded.url });
    await before.connect();
    await before.query('CREATE TABLE kept (n integer)');
    await before.query('INSERT INTO kept VALUES (42)');
    await before.end();

    const killed = postmasterPid();
    process.kill(killed, 'SIGKILL');
    await waitFor('it is back', async () => logged.some((m) => m.includes('is back')));
    expect(postmasterPid()).not.toBe(killed);
    expect(await answers(embedded.url)).toBe(true);
    const after = new pg.Client({ connectionString: embedded.url });
    await after.connect();
    const { rows } = await after.query<{ n: number }>('SELECT n FROM kept');
    await after.end();
    expect(rows).toEqual([{ n: 42 }]);
    expect(failures).toEqual([]);
  }, 120_000);

  it('calls onFailure when it cannot be started again', async () => {
    const pid = postmasterPid();
    // Its data directory goes away under it (the running server keeps its open directory):
    // every restart fails.
    await fs.rename(path.join(dir, 'postgres'), path.join(dir, 'moved'));
    process.kill(pid, 'SIGKILL');
    await waitFor('onFailure was called', async () => failures.length > 0);
    expect(failures[0]!.message).toMatch(/could not be started again/);
    expect(await answers(embedded.url)).toBe(false);
  }, 120_000);
});

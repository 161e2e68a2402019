import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { waitFor } from '../../test/server-process.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres.js';

/**
 * Stopping the server while a client is closing its connection, its goodbye not yet read by
 * its backend (held here with SIGSTOP, as a busy machine leaves it unscheduled): the client
 * must get no error. The job runner's pool is ended that way on shutdown, with its error
 * handler already removed, and an error there ended the app with exit code 1.
 */
let dir = '';
let embedded: EmbeddedPostgres | undefined;

afterAll(async () => {
  await embedded?.stop();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

/** The postmaster's status line in its pid file: "ready", then "stopping" once asked to stop. */
const status = () =>
  readFileSync(path.join(dir, 'postgres', 'postmaster.pid'), 'utf8')
    .split('\n')[7]
    ?.trim();

it('lets a session that is closing end by itself: its client gets no error', async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-pg-stop-'));
  await fs.chmod(dir, 0o755);
  embedded = await startEmbeddedPostgres({ dataDir: dir });
  const client = new pg.Client({ connectionString: embedded.url });
  const errors: string[] = [];
  client.on('error', (err) => errors.push(err.message));
  await client.connect();
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const backend = rows[0]!.pid;

  process.kill(backend, 'SIGSTOP');
  let ended: Promise<void>;
  let stopped: Promise<void>;
  try {
    ended = client.end();
    stopped = embedded.stop();
    await waitFor('the server is stopping', async () => status() === 'stopping');
    // Room for a fast shutdown to signal its backends, which it does right after.
    await sleep(200);
  } finally {
    process.kill(backend, 'SIGCONT');
  }
  await ended;
  await stopped;
  embedded = undefined;
  expect(errors).toEqual([]);
}, 120_000);

import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  startServerProcess,
  stopLeftoverPostgres,
  waitFor,
  type ServerProcess,
} from '../test/server-process.js';
import { smtpSink, type SmtpSink } from '../test/smtp-sink.js';
import { freePort } from './db/embedded-postgres.js';
import { UPLOAD_GRACE_MS } from './jobs/upload-sweeps.js';

/**
 * The process as `npm start` runs it, on the embedded PostgreSQL: killed with SIGKILL while it
 * serves, started again on the same DATA_DIR, it comes up with every committed user, sends the
 * mail it had committed but could not send, and runs the job that was waiting in the queue.
 */
const children: ChildProcess[] = [];
let dataDir = '';
let sink: SmtpSink | undefined;

async function startServer(port: number, smtpPort: number): Promise<ServerProcess> {
  const server = await startServerProcess(port, {
    DATA_DIR: dataDir,
    ADMIN_EMAIL: 'root@test.local',
    ADMIN_PASSWORD: 'root-password-1',
    PASSWORD_HASH_COST: '15',
    DATABASE_URL: '',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  });
  children.push(server.child);
  return server;
}

async function post(port: number, url: string, body: unknown, token?: string) {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A connection to the database the server runs (its port is in postmaster.pid). */
async function connectToServersDatabase(): Promise<pg.Client> {
  const pid = readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n');
  const password = readFileSync(path.join(dataDir, 'postgres.secret'), 'utf8').trim();
  const client = new pg.Client({
    connectionString: `postgres://herald:${encodeURIComponent(password)}@127.0.0.1:${pid[3]}/herald`,
  });
  await client.connect();
  return client;
}

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await sink?.close();
  await stopLeftoverPostgres(dataDir);
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

describe('server process', () => {
  it('survives SIGKILL with every committed user, mail and job, and stops cleanly on SIGTERM', async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-restart-'));
    await fs.chmod(dataDir, 0o755);
    // Nothing listens on the SMTP port until after the kill: the first server cannot send.
    const smtpPort = await freePort();
    const port1 = await freePort();
    const first = await startServer(port1, smtpPort);
    expect(first.output()).toContain('First Admin created: root@test.local');

    const login = await post(port1, '/api/login', {
      email: 'root@test.local',
      password: 'root-password-1',
    });
    expect(login.status).toBe(200);
    const created = await post(
      port1,
      '/api/users',
      { name: 'Kept', email: 'kept@test.local', password: 'kept-password-1', role: 'Reseller' },
      login.body.token as string,
    );
    expect(created.status).toBe(201);

    const db1 = await connectToServersDatabase();
    // The login-details mail is committed with the user; its first try failed, and the job
    // waits for its retry (not in flight: a job killed mid-run waits for its lock to expire).
    await waitFor('the mail job failed once', async () => {
      const { rows } = await db1.query(
        `SELECT j.attempts FROM mail_outbox m
         JOIN graphile_worker.jobs j ON j.key = 'mail:' || m.id
         WHERE m.recipient = 'kept@test.local' AND m.sent_at IS NULL
           AND j.attempts >= 1 AND j.locked_at IS NULL`,
      );
      return rows.length === 1;
    });
    // A job in the queue, due a moment later: an upload sweep, with a file for it to sweep.
    const campaigns = path.join(dataDir, 'uploads', 'campaigns');
    await fs.mkdir(campaigns, { recursive: true });
    const orphan = path.join(campaigns, 'left-by-a-crash.tmp');
    await fs.writeFile(orphan, 'x');
    const old = new Date(Date.now() - UPLOAD_GRACE_MS - 60_000);
    await fs.utimes(orphan, old, old);
    await db1.query(
      `SELECT graphile_worker.add_job('sweep-uploads', '{}'::json,
         run_at => now() + interval '2 seconds', job_key => 'before-the-kill')`,
    );
    await db1.end();

    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    expect(existsSync(orphan)).toBe(true);

    sink = await smtpSink(smtpPort);
    const port2 = await freePort();
    const second = await startServer(port2, smtpPort);
    expect(second.output()).not.toContain('First Admin created');
    const again = await post(port2, '/api/login', {
      email: 'kept@test.local',
      password: 'kept-password-1',
    });
    expect(again.status).toBe(200);

    await waitFor('the committed mail was sent', async () =>
      sink!.messages.some((m) => m.includes('To: kept@test.local')),
    );
    expect(sink.messages.filter((m) => m.includes('To: kept@test.local'))).toHaveLength(1);
    const db2 = await connectToServersDatabase();
    try {
      await waitFor('the queued job ran', async () => {
        const { rows } = await db2.query(
          `SELECT 1 FROM graphile_worker.jobs WHERE key = 'before-the-kill'`,
        );
        return rows.length === 0 && !existsSync(orphan);
      });
    } finally {
      await db2.end();
    }

    second.child.kill('SIGTERM');
    const code = await new Promise((r) => second.child.once('exit', r));
    expect(code, second.output()).toBe(0);
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  }, 240_000);
});

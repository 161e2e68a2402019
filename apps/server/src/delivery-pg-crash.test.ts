import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess, stopLeftoverPostgres, waitFor } from '../test/server-process.js';
import { ScratchPostgres } from '../test/scratch-postgres.js';
import {
  adminToken,
  approveCampaign,
  campaignStatus,
  settlement,
  type Settlement,
} from '../test/crash-campaign.js';
import { freePort } from './db/embedded-postgres.js';
import { SimulatorServer } from './modules/delivery/index.js';

/**
 * The delivery engine survives kill -9 of PostgreSQL. The server process, as
 * `npm start` runs it, sends a campaign to a simulator of this test's own; a third of the way
 * in, PostgreSQL's postmaster is killed with SIGKILL and comes back on the same data:
 * - DATABASE_URL: a PostgreSQL of the test's own, started again by the test (its supervisor);
 * - embedded: the app notices its server died and starts it again by itself.
 * Either way the same app process carries on (its pools, job runner and LISTEN reconnect) and
 * finishes the campaign: every recipient reaches the simulator (0 skipped), references sent
 * twice number at most the messages in flight (DELIVERY_CONCURRENCY), the campaign becomes
 * Completed then Report Generated, and the refund of the failed is written once.
 */
const SECRET = 'pg-crash-test-webhook-secret-0123456789';
const CONCURRENCY = 16;
const RECIPIENTS = 3000;
/** Some recipients fail at the provider, so the settlement has a refund to write. */
const FAIL_RATIO = 0.1;

let children: ChildProcess[] = [];
let cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const f of cleanups.reverse()) await f().catch(() => {});
  children = [];
  cleanups = [];
});

interface Run {
  /** The app process, still the one started first. */
  server: ChildProcess;
  output(): string;
  simulator: SimulatorServer;
  /** Accepted by the simulator when PostgreSQL was killed. */
  atKill: number;
  result: Settlement;
}

/**
 * Starts the app with `env`, approves a campaign, calls `crash` once a third was sent, and
 * waits until the campaign is Report Generated; `ownerUrl` then reads the database.
 */
async function sendAcrossCrash(
  env: Record<string, string>,
  crash: () => Promise<void>,
  ownerUrl: () => string,
): Promise<Run> {
  const simulator = await SimulatorServer.start({
    ratePerSecond: 400,
    failRatio: FAIL_RATIO,
    readRatio: 0,
    delayMs: 20,
    secret: SECRET,
  });
  cleanups.push(() => simulator.close());
  const port = await freePort();
  simulator.setCallbackUrl(`http://127.0.0.1:${port}/api/delivery/webhooks/simulator`);
  const { child: server, output } = await startServerProcess(port, {
    ADMIN_EMAIL: 'root@test.local',
    ADMIN_PASSWORD: 'root-password-1',
    PASSWORD_HASH_COST: '15',
    SIMULATOR_URL: simulator.url,
    DELIVERY_WEBHOOK_SECRET: SECRET,
    DELIVERY_CONCURRENCY: String(CONCURRENCY),
    LOG_LEVEL: 'info',
    ...env,
  });
  children.push(server);

  const token = await adminToken(port);
  const id = await approveCampaign(port, token, RECIPIENTS, 300);
  await waitFor('a third was sent', async () => simulator.stats().accepted >= RECIPIENTS / 3);
  const atKill = simulator.stats().accepted;
  await crash();

  await waitFor(
    'the campaign was settled',
    async () => {
      if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode})`);
      return (await campaignStatus(port, token, id)) === 'Report Generated';
    },
    240_000,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; the server printed:\n${output().slice(-6000)}`);
  });
  return { server, output, simulator, atKill, result: await settlement(ownerUrl(), id) };
}

function expectSentOnceAndSettled(run: Run, label: string): void {
  const stats = run.simulator.stats();
  const { result } = run;
  const figures = {
    atKill: run.atKill,
    accepted: stats.accepted,
    skipped: RECIPIENTS - stats.accepted,
    duplicates: stats.duplicates,
    bound: CONCURRENCY,
    delivered: result.delivered,
    failed: result.failed,
    refunds: result.refunds,
    // Whether a job was mid-run at the kill, so the job runner stopped and was started again.
    runnerRestarted: run.output().includes('job runner started again'),
  };
  console.log(`${label}: ${JSON.stringify(figures)}`);
  // The same process finished the campaign: it neither exited nor was restarted.
  expect(run.server.exitCode).toBeNull();
  expect(run.atKill).toBeLessThan(RECIPIENTS);
  expect(stats.accepted).toBe(RECIPIENTS);
  expect(stats.duplicates).toBeLessThanOrEqual(CONCURRENCY);
  expect(result.status).toBe('Report Generated');
  expect(result.delivered + result.failed).toBe(RECIPIENTS);
  expect(result.other).toBe(0);
  expect(result.failed).toBeGreaterThan(0);
  expect(result.refunds).toEqual([result.failed]);
  // The owner's one notice of the results, written once, with the refund in it.
  const done = result.notices.filter((m) => m.includes(' is done: '));
  expect(done).toHaveLength(1);
  expect(done[0]).toContain(`${result.delivered} of ${RECIPIENTS} delivered`);
  expect(done[0]).toContain(`${result.failed} Normal Message - domestic credits were refunded.`);
}

/** Creates `database` on the scratch server. */
async function createDatabase(adminUrl: string, database: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  await admin.end();
}

/** The embedded server's owner URL: its password file and the port in its postmaster.pid. */
function embeddedOwnerUrl(dataDir: string): string {
  const password = readFileSync(path.join(dataDir, 'postgres.secret'), 'utf8').trim();
  const port = postmasterPid(dataDir)[3];
  return `postgres://herald:${encodeURIComponent(password)}@127.0.0.1:${port}/herald`;
}

function postmasterPid(dataDir: string): string[] {
  return readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n');
}

async function tempDataDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-pg-crash-'));
  await fs.chmod(dir, 0o755);
  cleanups.push(async () => {
    await stopLeftoverPostgres(dir);
    await fs.rm(dir, { recursive: true, force: true });
  });
  return dir;
}

describe('delivery across a kill -9 of PostgreSQL', () => {
  it('with DATABASE_URL: the app reconnects when its PostgreSQL is back and finishes', async () => {
    const scratch = await ScratchPostgres.create();
    cleanups.push(() => scratch.destroy());
    await createDatabase(scratch.url(), 'herald');
    const dataDir = await tempDataDir();
    const run = await sendAcrossCrash(
      { DATA_DIR: dataDir, DATABASE_URL: scratch.url('herald') },
      async () => {
        await scratch.kill9();
        // Down for a while, as a supervisor's restart delay would leave it.
        await new Promise((r) => setTimeout(r, 3000));
        await scratch.start();
      },
      () => scratch.url('herald'),
    );
    expectSentOnceAndSettled(run, 'DATABASE_URL');
    run.server.kill('SIGTERM');
    expect(await new Promise((r) => run.server.once('exit', r))).toBe(0);
  }, 420_000);

  it('embedded: the app starts its PostgreSQL again by itself and finishes', async () => {
    const dataDir = await tempDataDir();
    let killed = 0;
    const run = await sendAcrossCrash(
      { DATA_DIR: dataDir, DATABASE_URL: '' },
      async () => {
        killed = Number(postmasterPid(dataDir)[0]);
        process.kill(killed, 'SIGKILL');
      },
      () => embeddedOwnerUrl(dataDir),
    );
    expectSentOnceAndSettled(run, 'embedded');
    // A new postmaster serves the same data.
    expect(Number(postmasterPid(dataDir)[0])).not.toBe(killed);
    expect(run.output()).toContain('starting it again');
    run.server.kill('SIGTERM');
    expect(await new Promise((r) => run.server.once('exit', r))).toBe(0);
  }, 420_000);
});

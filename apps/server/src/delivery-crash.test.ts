import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess, stopLeftoverPostgres, waitFor } from '../test/server-process.js';
import { adminToken, api, approveCampaign, CRASH_ADMIN } from '../test/crash-campaign.js';
import { freePort } from './db/embedded-postgres.js';
import { SimulatorServer } from './modules/delivery/index.js';

/**
 * The delivery engine survives kill -9: the process as `npm start` runs it sends a campaign to
 * a simulator of this test's own; killed with SIGKILL mid-campaign and started again on the
 * same DATA_DIR, it resumes by itself. Every recipient reaches the simulator (0 skipped), and
 * references sent twice number at most the messages in flight at the kill
 * (DELIVERY_CONCURRENCY). The rows the dead instance held are found through its presence key
 * alone (docs/delivery.md, Dead instances): the test adds five rows beyond the cursor as if it
 * had claimed them last, which nothing else would ever send, and the campaign still ends.
 */
const SECRET = 'crash-test-webhook-secret-0123456789';
const CONCURRENCY = 16;
const RECIPIENTS = 3000;
const children: ChildProcess[] = [];
let dataDir = '';
let simulator: SimulatorServer | undefined;

async function startServer(port: number): Promise<ChildProcess> {
  const { child } = await startServerProcess(port, {
    DATA_DIR: dataDir,
    ADMIN_EMAIL: CRASH_ADMIN.email,
    ADMIN_PASSWORD: CRASH_ADMIN.password,
    PASSWORD_HASH_COST: '15',
    DATABASE_URL: '',
    SIMULATOR_URL: simulator!.url,
    DELIVERY_WEBHOOK_SECRET: SECRET,
    DELIVERY_CONCURRENCY: String(CONCURRENCY),
  });
  children.push(child);
  return child;
}

/** The embedded server's owner URL: its password file and the port in its postmaster.pid. */
function embeddedOwnerUrl(): string {
  const password = readFileSync(path.join(dataDir, 'postgres.secret'), 'utf8').trim();
  const pid = readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8');
  const port = pid.split('\n')[3];
  return `postgres://herald:${encodeURIComponent(password)}@127.0.0.1:${port}/herald`;
}

/**
 * Five more rows for the killed instance: taken from the end of the first pass (beyond the
 * cursor, so only their claim can send them), as if it had claimed them last under its key.
 */
async function claimFiveForTheDead(campaignId: string): Promise<void> {
  const db = new pg.Client({ connectionString: embeddedOwnerUrl() });
  await db.connect();
  try {
    const dead = await db.query<{ key: number }>(
      `SELECT claimed_by AS key FROM campaign_recipients
       WHERE campaign_id = $1 AND claimed_by IS NOT NULL LIMIT 1`,
      [campaignId],
    );
    expect(dead.rows).toHaveLength(1);
    // Its claims are on record while rows of its key may be in flight (the claim writes it).
    await db.query(
      `INSERT INTO dispatch_claimers (campaign_id, key) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      [campaignId, dead.rows[0]!.key],
    );
    const claimed = await db.query(
      `UPDATE campaign_recipients SET state = 'sending', attempts = 1, state_at = now(),
         next_attempt_at = NULL, claimed_by = $2
       WHERE campaign_id = $1 AND phone IN (
         SELECT phone FROM campaign_recipients WHERE campaign_id = $1 AND state IS NULL
         ORDER BY phone DESC LIMIT 5)`,
      [campaignId, dead.rows[0]!.key],
    );
    expect(claimed.rowCount).toBe(5);
  } finally {
    await db.end();
  }
}

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await simulator?.close();
  await stopLeftoverPostgres(dataDir);
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

describe('delivery across a crash', () => {
  it('resumes after kill -9 with no recipient skipped and duplicates within the in-flight bound', async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-delivery-crash-'));
    await fs.chmod(dataDir, 0o755);
    simulator = await SimulatorServer.start({
      ratePerSecond: 400,
      failRatio: 0,
      readRatio: 0,
      delayMs: 20,
      secret: SECRET,
    });
    const port1 = await freePort();
    simulator.setCallbackUrl(`http://127.0.0.1:${port1}/api/delivery/webhooks/simulator`);
    const first = await startServer(port1);

    const token = await adminToken(port1);
    const campaignId = await approveCampaign(port1, token, RECIPIENTS, 300);

    await waitFor(
      'a third was sent',
      async () => simulator!.stats().accepted >= RECIPIENTS / 3,
      60_000,
    );
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const atKill = simulator.stats().accepted;
    expect(atKill).toBeLessThan(RECIPIENTS);
    await claimFiveForTheDead(campaignId);

    const port2 = await freePort();
    simulator.setCallbackUrl(`http://127.0.0.1:${port2}/api/delivery/webhooks/simulator`);
    const second = await startServer(port2);
    const token2 = await adminToken(port2);
    await waitFor(
      'the campaign was settled',
      async () => {
        const c = await api<{ status: string }>(
          port2,
          'GET',
          `/api/campaigns/${campaignId}`,
          token2,
        );
        return c.status === 'Report Generated';
      },
      180_000,
    );

    const stats = simulator.stats();
    // Every recipient reached the provider once; a reference sent twice was in flight at the kill.
    expect(stats.accepted).toBe(RECIPIENTS);
    expect(stats.duplicates).toBeLessThanOrEqual(CONCURRENCY);
    const report = await api<{ summary: { total: number; delivered: number } }>(
      port2,
      'GET',
      `/api/campaigns/${campaignId}/report?limit=1`,
      token2,
    );
    expect(report.summary).toEqual({ total: RECIPIENTS, delivered: RECIPIENTS, failed: 0 });

    second.kill('SIGTERM');
    expect(await new Promise((r) => second.once('exit', r))).toBe(0);
  }, 300_000);
});

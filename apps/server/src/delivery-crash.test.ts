import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess, stopLeftoverPostgres, waitFor } from '../test/server-process.js';
import { freePort } from './db/embedded-postgres.js';
import { SimulatorServer } from './modules/delivery/providers/simulator-server.js';

/**
 * The delivery engine survives kill -9 (issue 14): the process as `npm start` runs it sends a
 * campaign to a simulator of this test's own; killed with SIGKILL mid-campaign and started
 * again on the same DATA_DIR, it resumes by itself. Every recipient reaches the simulator
 * (0 skipped), and references sent twice number at most the messages in flight at the kill
 * (DELIVERY_CONCURRENCY).
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
    ADMIN_EMAIL: 'root@test.local',
    ADMIN_PASSWORD: 'root-password-1',
    PASSWORD_HASH_COST: '15',
    DATABASE_URL: '',
    SIMULATOR_URL: simulator!.url,
    DELIVERY_WEBHOOK_SECRET: SECRET,
    DELIVERY_CONCURRENCY: String(CONCURRENCY),
  });
  children.push(child);
  return child;
}

async function api<T>(port: number, method: string, url: string, token?: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: {
      ...(body instanceof FormData || body === undefined
        ? {}
        : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
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

    const { token } = await api<{ token: string }>(port1, 'POST', '/api/login', undefined, {
      email: 'root@test.local',
      password: 'root-password-1',
    });
    const type = 'Normal Message - domestic';
    await api(port1, 'POST', '/api/users', token, {
      name: 'Owner',
      email: 'owner@test.local',
      password: 'owner-password-1',
      role: 'User',
    });
    await api(port1, 'POST', '/api/credits', token, {
      to: 'owner@test.local',
      creditType: type,
      count: RECIPIENTS,
      rate: 0.25,
      type: 'Added',
    });
    const [sender] = await api<{ id: string }[]>(port1, 'GET', '/api/delivery/senders', token);
    await api(port1, 'PUT', `/api/delivery/senders/${sender!.id}`, token, {
      ratePerSecond: 300,
      dailyLimit: null,
    });
    const form = new FormData();
    form.set('userEmail', 'owner@test.local');
    form.set('creditType', type);
    form.set('message', 'Crash test');
    // Numbers that avoid the simulator's test endings (0000, 1313, 5000).
    const to = Array.from(
      { length: RECIPIENTS },
      (_, i) => `98${String(i * 3 + 7).padStart(8, '0')}`,
    );
    form.set('to', to.join(','));
    const { campaign } = await api<{ campaign: { _id: string } }>(
      port1,
      'POST',
      '/api/campaigns',
      token,
      form,
    );
    await api(port1, 'PUT', `/api/campaigns/status/${campaign._id}`, token, { status: 'Approved' });

    await waitFor(
      'a third was sent',
      async () => simulator!.stats().accepted >= RECIPIENTS / 3,
      60_000,
    );
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const atKill = simulator.stats().accepted;
    expect(atKill).toBeLessThan(RECIPIENTS);

    const port2 = await freePort();
    simulator.setCallbackUrl(`http://127.0.0.1:${port2}/api/delivery/webhooks/simulator`);
    const second = await startServer(port2);
    const { token: token2 } = await api<{ token: string }>(port2, 'POST', '/api/login', undefined, {
      email: 'root@test.local',
      password: 'root-password-1',
    });
    await waitFor(
      'the campaign was settled',
      async () => {
        const c = await api<{ status: string }>(
          port2,
          'GET',
          `/api/campaigns/${campaign._id}`,
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
      `/api/campaigns/${campaign._id}/report?limit=1`,
      token2,
    );
    expect(report.summary).toEqual({ total: RECIPIENTS, delivered: RECIPIENTS, failed: 0 });

    second.kill('SIGTERM');
    expect(await new Promise((r) => second.once('exit', r))).toBe(0);
  }, 300_000);
});

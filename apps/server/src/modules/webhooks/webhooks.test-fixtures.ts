import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { Webhook } from 'standardwebhooks';
import {
  WebhookPayloadSchema,
  type CreateWebhookReply,
  type WebhookDeliveryPage,
  type WebhookPayload,
} from '@herald/contract';
import type { TestApp } from '../../../test/harness.js';

/** Test-only helpers of the webhooks tests: a loopback endpoint and the API calls. */

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url(path: string): string;
  received: Received[];
  /** The status each path answers (default 204), with extra headers. */
  answer(path: string, status: number, headers?: Record<string, string>): void;
  /** The calls to `path`, each verified with `secret` by the standardwebhooks library. */
  verified(path: string, secret: string): WebhookPayload[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers = new Map<string, { status: number; headers: Record<string, string> }>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const a = answers.get(path) ?? { status: 204, headers: {} };
      res.writeHead(a.status, a.headers).end(a.status >= 400 ? 'nope' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    answer: (path, status, headers = {}) => answers.set(path, { status, headers }),
    verified(path, secret) {
      const wh = new Webhook(secret);
      return received
        .filter((r) => r.path === path)
        .map((r) =>
          WebhookPayloadSchema.parse(
            wh.verify(r.body, {
              'webhook-id': String(r.headers['webhook-id']),
              'webhook-timestamp': String(r.headers['webhook-timestamp']),
              'webhook-signature': String(r.headers['webhook-signature']),
            }),
          ),
        );
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export function postEndpoint(t: TestApp, token: string | undefined, payload: unknown) {
  return t.request({ method: 'POST', url: '/api/webhooks', token, payload: payload as object });
}

export async function makeEndpoint(
  t: TestApp,
  token: string,
  url: string,
  events: string[] = ['campaign.status_changed'],
): Promise<CreateWebhookReply> {
  const res = await postEndpoint(t, token, { url, events, description: 'Test' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreateWebhookReply>();
}

export async function deliveriesOf(t: TestApp, token: string, id: string) {
  const res = await t.request({ url: `/api/webhooks/${id}/deliveries`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<WebhookDeliveryPage>().deliveries;
}

/** The waiting delivery jobs, with their attempt and when they run. */
export async function pendingDeliveries(t: TestApp) {
  const { rows } = await sql<{ attempt: number; run_at: Date }>`
    SELECT (j.payload->>'attempt')::int AS attempt, j.run_at
      FROM graphile_worker._private_jobs j
      JOIN graphile_worker._private_tasks k ON k.id = j.task_id
     WHERE k.identifier = 'webhook-deliver' ORDER BY j.run_at`.execute(t.ownerDb);
  return rows;
}

/** Makes every waiting job due now, then runs them. */
export async function runRetriesNow(t: TestApp): Promise<void> {
  await sql`UPDATE graphile_worker._private_jobs SET run_at = now()`.execute(t.ownerDb);
  await t.runDueJobs();
}

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  server as msg,
  WEBHOOK_SECRET_PREFIX,
  type RotateWebhookSecretReply,
  type WebhookEndpointReply,
  type WebhookList,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import {
  deliveriesOf,
  makeEndpoint,
  pendingDeliveries,
  postEndpoint,
  runRetriesNow,
  startReceiver,
  type Receiver,
} from './webhooks.test-fixtures.js';

let t: TestApp;
let strict: TestApp;
let h: Hierarchy;
let rx: Receiver;
beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', DELIVERY_DISPATCH: 'off' });
  strict = await createTestApp();
  h = await buildHierarchy(t);
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
  await t.close();
  await strict.close();
});

const test = (token: string, id: string) =>
  t.request({ method: 'POST', url: `/api/webhooks/${id}/test`, token });

describe('endpoints', () => {
  it('creates an endpoint, answering its whsec_ secret once, and lists it without it', async () => {
    const created = await makeEndpoint(t, h.u1.token, rx.url('/create'), [
      'campaign.status_changed',
      'ticket.updated',
    ]);
    expect(created.message).toBe(msg.webhookEndpointCreated);
    expect(created.secret.startsWith(WEBHOOK_SECRET_PREFIX)).toBe(true);
    expect(created.endpoint).toMatchObject({ enabled: true, disabledReason: null });
    const list = await t.request({ url: '/api/webhooks', token: h.u1.token });
    expect(list.statusCode).toBe(200);
    const body = list.json<WebhookList>();
    expect(body.httpsOnly).toBe(false);
    expect(body.endpoints.map((e) => e.id)).toContain(created.endpoint.id);
    expect(list.body).not.toContain(created.secret);
    const sealed = await t.db
      .selectFrom('webhook_endpoints')
      .select('secret')
      .where('id', '=', created.endpoint.id)
      .executeTakeFirstOrThrow();
    expect(sealed.secret).not.toContain(created.secret);
    // Another user neither lists nor reaches it.
    const other = await t.request({ url: '/api/webhooks', token: h.u2.token });
    expect(other.json<WebhookList>().endpoints).toEqual([]);
    const res = await test(h.u2.token, created.endpoint.id);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: msg.webhookEndpointNotFound });
  });

  it('answers 401 without a session and 400 with the contract messages', async () => {
    expect((await postEndpoint(t, undefined, {})).statusCode).toBe(401);
    const noEvents = await postEndpoint(t, h.u1.token, { url: rx.url('/x'), events: [] });
    expect(noEvents.statusCode).toBe(400);
    expect(noEvents.json()).toEqual({ message: msg.webhookEventsRequired });
    const badUrl = await postEndpoint(t, h.u1.token, {
      url: 'ftp://x',
      events: ['ticket.updated'],
    });
    expect(badUrl.json()).toEqual({ message: msg.webhookUrlInvalid });
    const nul = await postEndpoint(t, h.u1.token, { url: 'https://a\0b', events: ['x'] });
    expect(nul.statusCode).toBe(400);
  });

  it('requires https and a public address unless WEBHOOK_ALLOW_PRIVATE', async () => {
    const admin = await strict.adminToken();
    const list = await strict.request({ url: '/api/webhooks', token: admin });
    expect(list.json<WebhookList>().httpsOnly).toBe(true);
    const http = await postEndpoint(strict, admin, {
      url: 'http://example.com/hook',
      events: ['ticket.updated'],
    });
    expect(http.json()).toEqual({ message: msg.webhookUrlNotHttps });
    for (const url of [
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://[::1]/hook',
      'https://169.254.169.254/latest',
      'https://10.1.2.3/',
      'https://[::ffff:127.0.0.1]/',
    ]) {
      const res = await postEndpoint(strict, admin, { url, events: ['ticket.updated'] });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({ message: msg.webhookUrlPrivate });
    }
  });

  it('updates, disables, enables and deletes its own endpoint', async () => {
    const { endpoint } = await makeEndpoint(t, h.u2.token, rx.url('/edit'));
    const patch = (payload: object, token = h.u2.token) =>
      t.request({ method: 'PATCH', url: `/api/webhooks/${endpoint.id}`, token, payload });
    const off = await patch({ enabled: false, description: 'Off for now' });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json<WebhookEndpointReply>().endpoint).toMatchObject({
      enabled: false,
      disabledReason: 'manual',
      description: 'Off for now',
    });
    expect((await test(h.u2.token, endpoint.id)).json()).toEqual({
      message: msg.webhookEndpointDisabledTest,
    });
    const on = await patch({ enabled: true, events: ['ticket.updated', 'ticket.updated'] });
    expect(on.json<WebhookEndpointReply>().endpoint).toMatchObject({
      enabled: true,
      disabledReason: null,
      events: ['ticket.updated'],
    });
    expect((await patch({ enabled: false }, h.u1.token)).statusCode).toBe(404);
    const del = await t.request({
      method: 'DELETE',
      url: `/api/webhooks/${endpoint.id}`,
      token: h.u2.token,
    });
    expect(del.json()).toEqual({ message: msg.webhookEndpointDeleted });
    expect((await patch({ enabled: true })).statusCode).toBe(404);
  });
});

describe('delivery', () => {
  it('signs a test event per Standard Webhooks and logs the 2xx once', async () => {
    const { endpoint, secret } = await makeEndpoint(t, h.r1.token, rx.url('/ok'));
    const res = await test(h.r1.token, endpoint.id);
    expect(res.statusCode).toBe(202);
    await t.runDueJobs();
    const calls = rx.verified('/ok', secret);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ type: 'webhook.test', data: { endpointId: endpoint.id } });
    const got = rx.received.find((r) => r.path === '/ok')!;
    expect(got.headers['webhook-id']).toMatch(/^msg_/);
    expect(got.headers['webhook-signature']).toMatch(/^v1,/);
    const log = await deliveriesOf(t, h.r1.token, endpoint.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ attempt: 1, statusCode: 204, ok: true, nextAttemptAt: null });
    expect(await pendingDeliveries(t)).toEqual([]);
    await runRetriesNow(t);
    expect(rx.verified('/ok', secret)).toHaveLength(1);
  });

  it('retries a 500 on the schedule, with the same webhook-id, until a 2xx', async () => {
    const { endpoint, secret } = await makeEndpoint(t, h.r2.token, rx.url('/flaky'));
    rx.answer('/flaky', 500);
    await test(h.r2.token, endpoint.id);
    const before = Date.now();
    await t.runDueJobs();
    const [next] = await pendingDeliveries(t);
    expect(next?.attempt).toBe(2);
    expect(next!.run_at.getTime() - before).toBeGreaterThanOrEqual(4_000);
    expect(next!.run_at.getTime() - before).toBeLessThan(60_000);
    await runRetriesNow(t);
    const [third] = await pendingDeliveries(t);
    expect(third?.attempt).toBe(3);
    // The third waits 5 minutes.
    expect(third!.run_at.getTime() - Date.now()).toBeGreaterThan(4 * 60_000);
    rx.answer('/flaky', 200);
    await runRetriesNow(t);
    expect(await pendingDeliveries(t)).toEqual([]);
    const calls = rx.received.filter((r) => r.path === '/flaky');
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((c) => c.headers['webhook-id'])).size).toBe(1);
    expect(rx.verified('/flaky', secret)).toHaveLength(3);
    const log = await deliveriesOf(t, h.r2.token, endpoint.id);
    expect(log.map((d) => [d.attempt, d.statusCode, d.ok])).toEqual([
      [3, 200, true],
      [2, 500, false],
      [1, 500, false],
    ]);
    const row = await t.db
      .selectFrom('webhook_endpoints')
      .select('failing_since')
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(row.failing_since).toBeNull();
  });

  it('waits at least as long as Retry-After asks', async () => {
    const { endpoint } = await makeEndpoint(t, h.s1.token, rx.url('/busy'));
    rx.answer('/busy', 503, { 'retry-after': '3600' });
    await test(h.s1.token, endpoint.id);
    await t.runDueJobs();
    const [next] = await pendingDeliveries(t);
    expect(next!.run_at.getTime() - Date.now()).toBeGreaterThan(3500_000);
    await sql`DELETE FROM graphile_worker._private_jobs`.execute(t.ownerDb);
  });

  it('stops on 410 and disables the endpoint, telling its owner', async () => {
    const { endpoint } = await makeEndpoint(t, h.u3.token, rx.url('/gone'));
    rx.answer('/gone', 410);
    await test(h.u3.token, endpoint.id);
    await t.runDueJobs();
    expect(await pendingDeliveries(t)).toEqual([]);
    const list = await t.request({ url: '/api/webhooks', token: h.u3.token });
    const ep = list.json<WebhookList>().endpoints.find((e) => e.id === endpoint.id)!;
    expect(ep).toMatchObject({ enabled: false, disabledReason: 'gone' });
    const notes = await t.db
      .selectFrom('notifications')
      .select('message')
      .where('user_id', '=', h.u3.user._id)
      .where('event_type', '=', 'webhook')
      .execute();
    expect(notes.map((n) => n.message)).toEqual([msg.notifyWebhookDisabledGone(ep.url)]);
  });

  it('disables an endpoint failing for 3 days', async () => {
    const { endpoint } = await makeEndpoint(t, h.u3.token, rx.url('/down'));
    rx.answer('/down', 502);
    await t.ownerDb
      .updateTable('webhook_endpoints')
      .set({ failing_since: sql`now() - interval '3 days 1 minute'` })
      .where('id', '=', endpoint.id)
      .execute();
    await test(h.u3.token, endpoint.id);
    await t.runDueJobs();
    expect(await pendingDeliveries(t)).toEqual([]);
    const row = await t.db
      .selectFrom('webhook_endpoints')
      .select(['enabled', 'disabled_reason'])
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ enabled: false, disabled_reason: 'failing' });
  });

  it('signs with the new secret once rotated', async () => {
    const { endpoint, secret } = await makeEndpoint(t, h.u1.token, rx.url('/rotate'));
    const res = await t.request({
      method: 'POST',
      url: `/api/webhooks/${endpoint.id}/rotate-secret`,
      token: h.u1.token,
    });
    const rotated = res.json<RotateWebhookSecretReply>();
    expect(rotated.secret).not.toBe(secret);
    await test(h.u1.token, endpoint.id);
    await t.runDueJobs();
    expect(rx.verified('/rotate', rotated.secret)).toHaveLength(1);
    expect(() => rx.verified('/rotate', secret)).toThrow();
  });
});

describe('SSRF rule at send time', () => {
  it('refuses an endpoint resolving to 127.0.0.1 when private addresses are not allowed', async () => {
    const { endpoint } = await makeEndpoint(t, h.r1.token, rx.url('/private'));
    await test(h.r1.token, endpoint.id);
    // The same endpoint, sent by an instance that does not allow private addresses.
    const ctx = {
      ...t.app.ctx,
      config: { ...t.app.ctx.config, webhooks: { allowPrivate: false } },
    };
    const { deliverWebhook } = await import('./webhook-delivery.js');
    const ev = await t.db
      .selectFrom('webhook_events')
      .select('id')
      .where('type', '=', 'webhook.test')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    await sql`DELETE FROM graphile_worker._private_jobs`.execute(t.ownerDb);
    await deliverWebhook(ctx, { eventId: ev.id, endpointId: endpoint.id, attempt: 1 });
    expect(rx.received.filter((r) => r.path === '/private')).toHaveLength(0);
    const [attempt] = await deliveriesOf(t, h.r1.token, endpoint.id);
    expect(attempt).toMatchObject({ ok: false, statusCode: null });
    expect(attempt!.error).toMatch(/private/);
  });
});

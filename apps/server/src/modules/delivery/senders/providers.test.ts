import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  server as msg,
  type CreditRoute,
  type Provider,
  type ProviderTestResult,
  type Sender,
} from '@herald/contract';
import { startDeliveryApp, type DeliveryTestApp } from '../../../../test/delivery-harness.js';
import { buildHierarchy, type Hierarchy } from '../../users/test-fixtures.js';
import { WhatsAppFake } from '../providers/fakes/whatsapp-fake.js';

/**
 * Providers, senders and routing through the API (Admin only): secrets sealed and never
 * answered, the kind's fields checked, rich credit types kept off SMS gateways, and a test
 * message answered with the provider's raw answer.
 */

const WA = {
  apiVersion: 'v21.0',
  phoneNumberId: '106540352242922',
  accessToken: 'EAAGm0PX4ZCpsBAtheSecretAccessToken',
  appSecret: 'providers-app-secret-1234',
  verifyToken: 'providers-verify-token',
};

let t: DeliveryTestApp;
let h: Hierarchy;
let fake: WhatsAppFake;
beforeAll(async () => {
  t = await startDeliveryApp();
  h = await buildHierarchy(t);
  fake = await WhatsAppFake.start(WA);
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.request({ method, url, token: h.admin, ...(payload ? { payload } : {}) });

const whatsApp = (over: Record<string, unknown> = {}) => ({
  kind: 'whatsapp_cloud',
  name: 'WhatsApp main',
  settings: { baseUrl: fake.url, apiVersion: WA.apiVersion },
  secrets: { accessToken: WA.accessToken, appSecret: WA.appSecret, verifyToken: WA.verifyToken },
  ...over,
});

describe('providers', () => {
  let provider: Provider;

  it('lists the built-in simulator, answers 403 to every other role', async () => {
    const res = await call('GET', '/api/delivery/providers');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Provider[]>()).toEqual([
      expect.objectContaining({ name: 'Simulator', kind: 'simulator', builtin: true, secrets: {} }),
    ]);
    for (const token of [h.r1.token, h.s1.token, h.u1.token]) {
      const other = await t.request({ method: 'GET', url: '/api/delivery/providers', token });
      expect(other.statusCode).toBe(403);
    }
  });

  it('adds a WhatsApp provider: secrets sealed at rest, answered only by their last 4', async () => {
    const res = await call('POST', '/api/delivery/providers', whatsApp());
    expect(res.statusCode, res.body).toBe(201);
    provider = res.json<Provider>();
    expect(provider).toMatchObject({
      kind: 'whatsapp_cloud',
      builtin: false,
      enabled: true,
      settings: { baseUrl: fake.url, apiVersion: WA.apiVersion },
      secrets: { accessToken: 'oken', appSecret: '1234', verifyToken: 'oken' },
      senderCount: 0,
    });
    // Its own unguessable path: /api/delivery/webhooks/<id>/<token>.
    const path = new URL(provider.callbackUrl).pathname.split('/');
    expect(path.slice(0, 5)).toEqual(['', 'api', 'delivery', 'webhooks', provider.id]);
    expect(path[5]!.length).toBeGreaterThanOrEqual(40);
    const list = await call('GET', '/api/delivery/providers');
    for (const secret of [WA.accessToken, WA.appSecret, WA.verifyToken]) {
      expect(res.body).not.toContain(secret);
      expect(list.body).not.toContain(secret);
    }
    const { rows } = await sql<{ row: string }>`SELECT p::text AS row FROM providers p`.execute(
      t.db,
    );
    const stored = rows.map((r) => r.row).join('\n');
    for (const secret of [WA.accessToken, WA.appSecret, WA.verifyToken, path[5]!]) {
      expect(stored).not.toContain(secret);
    }
  });

  it('checks the kind’s fields and the name', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        whatsApp({ name: 'x', secrets: { accessToken: 'a', appSecret: 'b' } }),
        'Verify token is required.',
      ],
      [
        whatsApp({ name: 'y', settings: { baseUrl: 'ftp://x', apiVersion: 'v1' } }),
        msg.providerUrlInvalid('Graph API URL'),
      ],
      [
        whatsApp({ name: 'z', settings: { baseUrl: fake.url, apiVersion: 'v1', pin: '1' } }),
        msg.providerFieldUnknown('pin'),
      ],
      [whatsApp({ name: '' }), msg.providerNameInvalid(100)],
    ];
    for (const [body, message] of cases) {
      const res = await call('POST', '/api/delivery/providers', body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ message });
    }
    const taken = await call('POST', '/api/delivery/providers', whatsApp());
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ message: msg.providerNameTaken });
  });

  it('edits: an empty secret keeps the saved one, a new one replaces it; the simulator is fixed', async () => {
    const keep = await call('PUT', `/api/delivery/providers/${provider.id}`, {
      name: 'WhatsApp main',
      settings: { baseUrl: fake.url, apiVersion: WA.apiVersion, domesticCountryCode: '91' },
      secrets: { accessToken: '', appSecret: '' },
    });
    expect(keep.statusCode, keep.body).toBe(200);
    expect(keep.json<Provider>().secrets).toEqual(provider.secrets);
    expect(keep.json<Provider>().settings.domesticCountryCode).toBe('91');
    const builtin = (await call('GET', '/api/delivery/providers')).json<Provider[]>()[0]!;
    const fixed = await call('PUT', `/api/delivery/providers/${builtin.id}`, { name: 'Sim' });
    expect(fixed.statusCode).toBe(409);
    expect(fixed.json()).toEqual({ message: msg.providerBuiltin });
  });

  it('adds a sender, routes a rich type to it, refuses a rich type on an SMS gateway', async () => {
    const noAddress = await call('POST', '/api/delivery/senders', {
      providerId: provider.id,
      name: 'WA sender',
      address: '',
      ratePerSecond: 50,
      dailyLimit: null,
    });
    expect(noAddress.statusCode).toBe(400);
    expect(noAddress.json()).toEqual({ message: msg.senderAddressRequired('Phone number ID') });
    const res = await call('POST', '/api/delivery/senders', {
      providerId: provider.id,
      name: 'WA sender',
      address: WA.phoneNumberId,
      ratePerSecond: 50,
      dailyLimit: null,
    });
    expect(res.statusCode, res.body).toBe(201);
    const sender = res.json<Sender>();
    expect(sender).toMatchObject({ providerKind: 'whatsapp_cloud', address: WA.phoneNumberId });

    const sms = await call('POST', '/api/delivery/providers', {
      kind: 'jasmin',
      name: 'Jasmin',
      settings: { baseUrl: 'http://127.0.0.1:9' },
      secrets: { username: 'u', password: 'p' },
    });
    expect(sms.statusCode, sms.body).toBe(201);
    const smsSender = await call('POST', '/api/delivery/senders', {
      providerId: sms.json<Provider>().id,
      name: 'SMS sender',
      address: 'HERALD',
      ratePerSecond: 10,
      dailyLimit: null,
    });
    const rich = await call('PUT', '/api/delivery/routes', {
      routes: [
        { creditType: 'With DP - domestic', senderId: sender.id },
        { creditType: 'With CTA - domestic', senderId: smsSender.json<Sender>().id },
      ],
    });
    expect(rich.statusCode).toBe(400);
    expect(rich.json()).toEqual({ message: msg.routeRichToSms('With CTA - domestic') });
    // All or nothing: the first route of the refused request was not kept.
    const before = (await call('GET', '/api/delivery/routes')).json<CreditRoute[]>();
    expect(before.every((r) => r.senderId === null)).toBe(true);
    const ok = await call('PUT', '/api/delivery/routes', {
      routes: [
        { creditType: 'With DP - domestic', senderId: sender.id },
        { creditType: 'Normal Message - domestic', senderId: smsSender.json<Sender>().id },
      ],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<CreditRoute[]>()).toContainEqual({
      creditType: 'With DP - domestic',
      senderId: sender.id,
    });
    const busy = await call('DELETE', `/api/delivery/providers/${provider.id}`);
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toEqual({ message: msg.providerHasSenders });
  });

  it('sends a test message and shows the provider’s raw answer, accepted or refused', async () => {
    const sender = (await call('GET', '/api/delivery/senders'))
      .json<Sender[]>()
      .find((s) => s.providerId === provider.id)!;
    const res = await call('POST', `/api/delivery/providers/${provider.id}/test`, {
      senderId: sender.id,
      to: '919876500001',
      message: 'Hello from the test',
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json<ProviderTestResult>();
    expect(result).toMatchObject({ ok: true, message: msg.providerTestAccepted, status: 200 });
    expect(result.providerMessageId).toMatch(/^wamid\./);
    expect(JSON.parse(result.body)).toMatchObject({ messaging_product: 'whatsapp' });
    expect(fake.messages.at(-1)!.body).toMatchObject({
      to: '919876500001',
      type: 'text',
      text: { body: 'Hello from the test' },
    });

    fake.refuse = () => ({ code: 131026, title: 'Message undeliverable' });
    const refused = (
      await call('POST', `/api/delivery/providers/${provider.id}/test`, {
        senderId: sender.id,
        to: '919876500002',
        message: 'Hello',
      })
    ).json<ProviderTestResult>();
    fake.refuse = () => null;
    expect(refused).toMatchObject({ ok: false, message: msg.providerTestRefused, status: 400 });
    expect(refused.body).toContain('131026');
  });

  it('removes a sender that sends nothing, then its provider', async () => {
    const jasmin = (await call('GET', '/api/delivery/providers'))
      .json<Provider[]>()
      .find((p) => p.kind === 'jasmin')!;
    const sender = (await call('GET', '/api/delivery/senders'))
      .json<Sender[]>()
      .find((s) => s.providerId === jasmin.id)!;
    expect((await call('DELETE', `/api/delivery/senders/${sender.id}`)).statusCode).toBe(204);
    // Its route went with it: that type goes through the default sender again.
    const routes = (await call('GET', '/api/delivery/routes')).json<CreditRoute[]>();
    expect(routes.find((r) => r.creditType === 'Normal Message - domestic')!.senderId).toBeNull();
    expect((await call('DELETE', `/api/delivery/providers/${jasmin.id}`)).statusCode).toBe(204);
    const simulator = (await call('GET', '/api/delivery/senders'))
      .json<Sender[]>()
      .find((s) => s.isDefault)!;
    const refused = await call('DELETE', `/api/delivery/senders/${simulator.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: msg.senderIsDefault });
  });
});

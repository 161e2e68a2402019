import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { campaignLink, server as msg, type Provider, type Sender } from '@herald/contract';
import { startDeliveryApp, type DeliveryTestApp } from '../../../test/delivery-harness.js';
import {
  createCampaign,
  NORMAL,
  notificationsOf,
  setStatus,
} from '../campaigns/campaign-actions.test-fixtures.js';
import { file, fund, png } from '../campaigns/campaigns.test-fixtures.js';
import {
  campaignOf,
  depsFor,
  makeRetriesDue,
  recipientsOf,
} from './dispatch/dispatch.test-fixtures.js';
import { runDispatchSlice } from './dispatch/dispatcher.js';
import { waStatus, WhatsAppFake } from './providers/fakes/whatsapp-fake.js';
import { whatsAppSignature } from './providers/whatsapp-webhook.js';

/**
 * A campaign sent by the engine through the WhatsApp Cloud API adapter to the fake Graph API,
 * end to end: approval, dispatch, media uploaded once, Meta's signed status webhooks back to
 * the app (verified before parsing, out of order and repeated), settlement; and each error
 * outcome the engine acts on, from the send's answer and from a status callback.
 */

const WA = {
  apiVersion: 'v21.0',
  phoneNumberId: '106540352242922',
  accessToken: 'EAAflow',
  appSecret: 'flow-app-secret',
  verifyToken: 'flow-verify-token',
};

let t: DeliveryTestApp;
let fake: WhatsAppFake;
let admin: string;
let adminId: string;
let senderId: string;
let providerId: string;
/** The provider's callback URL, as the Providers screen shows it, on this test's server. */
let callback: string;
const hook = () => t.baseUrl + callback;
/** What the engine logged meanwhile: no secret of the provider may be in it. */
const logs: string[] = [];

/** Dispatch through the app's own delivery: the adapter built from the provider's row. */
const deps = (options: Parameters<typeof depsFor>[2]) => ({
  ...depsFor(t, t.app.ctx.delivery.adapterFor('simulator'), options),
  delivery: t.app.ctx.delivery,
});

beforeAll(async () => {
  t = await startDeliveryApp({ logs, env: { LOG_LEVEL: 'debug' } });
  fake = await WhatsAppFake.start(WA);
  admin = await t.adminToken();
  // Connected as an Admin connects it: the provider, its sender, the credit type's route.
  const api = async <T>(method: 'POST' | 'PUT', url: string, payload: object): Promise<T> => {
    const res = await t.request({ method, url, token: admin, payload });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json<T>();
  };
  const provider = await api<Provider>('POST', '/api/delivery/providers', {
    kind: 'whatsapp_cloud',
    name: 'WhatsApp',
    settings: { baseUrl: fake.url, apiVersion: WA.apiVersion },
    secrets: { accessToken: WA.accessToken, appSecret: WA.appSecret, verifyToken: WA.verifyToken },
  });
  callback = new URL(provider.callbackUrl).pathname;
  providerId = provider.id;
  senderId = (
    await api<Sender>('POST', '/api/delivery/senders', {
      providerId: provider.id,
      name: 'WhatsApp number',
      address: WA.phoneNumberId,
      ratePerSecond: 500,
      dailyLimit: null,
    })
  ).id;
  await api('PUT', '/api/delivery/routes', { routes: [{ creditType: NORMAL, senderId }] });
  adminId = (
    await t.db
      .selectFrom('users')
      .select('id')
      .where('role', '=', 'Admin')
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(async () => {
  fake.messages.length = 0;
  fake.uploads.length = 0;
  fake.refuse = () => null;
  await t.db
    .updateTable('senders')
    .set({ bucket_tokens: 500, bucket_at: new Date(), throttled_until: null })
    .where('id', '=', senderId)
    .execute();
});

async function approved(to: string[], files = [file('images', png(10, 10), 'a.png')]) {
  const user = await t.createUser(admin, { role: 'User' });
  await fund(t, admin, user.user.email, NORMAL, to.length);
  const id = await createCampaign(t, user.token, to, {}, files);
  await setStatus(t, admin, id, 'Approved');
  return id;
}

async function until(what: string, done: () => Promise<boolean>, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`${what}: not in time`);
    await t.runDueJobs();
    await new Promise((r) => setTimeout(r, 50));
  }
}

const sentTo = (phone: string) => fake.messages.filter((m) => m.body.to === phone);

describe('a campaign through the WhatsApp Cloud API', () => {
  it('answers the subscription check with the challenge, and refuses a wrong token', async () => {
    const ok = await fetch(
      `${hook()}?hub.mode=subscribe&hub.verify_token=${WA.verifyToken}&hub.challenge=1158201444`,
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await ok.text()).toBe('1158201444');
    const wrong = await fetch(`${hook()}?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1`);
    expect(wrong.status).toBe(403);
    expect(((await wrong.json()) as { message: string }).message).toBe(
      msg.webhookSubscriptionRefused,
    );
  });

  it('is sent with its image uploaded once, and Meta’s signed statuses settle it', async () => {
    const to = Array.from({ length: 30 }, (_, i) => `9198100${String(i).padStart(5, '0')}`);
    const id = await approved(to);
    expect(await campaignOf(t, id)).toMatchObject({ sender_id: senderId, simulated: false });
    await until('sent', async () => (await campaignOf(t, id)).dispatch_state === 'done');
    expect(fake.uploads).toHaveLength(1);
    expect(fake.messages).toHaveLength(30);
    expect(fake.messages[0]!.body).toMatchObject({
      type: 'image',
      image: { id: '1000000000001', caption: 'Hello' },
    });

    // Unsigned, wrongly signed or tampered: 401, and nothing moves.
    const first = fake.messages[0]!;
    const body = fake.envelope({ statuses: [waStatus(first, 'delivered')] });
    const post = (b: string, headers: Record<string, string>) =>
      fetch(hook(), {
        method: 'POST',
        body: b,
        headers: { 'content-type': 'application/json', ...headers },
      });
    expect((await post(body, {})).status).toBe(401);
    expect((await fake.postStatuses(hook(), [waStatus(first, 'delivered')], 'wrong')).status).toBe(
      401,
    );
    const signed = (await fake.postStatuses(hook(), [])).status;
    expect(signed).toBe(200);
    const tampered = body.replace('delivered', 'read');
    expect(
      (await post(tampered, { 'x-hub-signature-256': whatsAppSignature(WA.appSecret, body) }))
        .status,
    ).toBe(401);
    expect((await recipientsOf(t, id)).every((r) => r.state === 'sent')).toBe(true);

    // Read without delivered, events out of order and twice, and one failure.
    const [a, b, c, ...rest] = fake.messages;
    await fake.postStatuses(hook(), [
      waStatus(a!, 'read'),
      waStatus(a!, 'delivered'),
      waStatus(a!, 'sent'),
    ]);
    await fake.postStatuses(hook(), [waStatus(a!, 'read')]);
    await fake.postStatuses(hook(), [
      waStatus(b!, 'failed', new Date(), { code: 131026, title: 'Message undeliverable' }),
    ]);
    await fake.postStatuses(hook(), [waStatus(c!, 'delivered'), waStatus(c!, 'delivered')]);
    for (let i = 0; i < rest.length; i += 10) {
      await fake.postStatuses(
        hook(),
        rest.slice(i, i + 10).map((m) => waStatus(m, 'delivered')),
      );
    }
    await until(
      'settled',
      async () =>
        (
          await t.db
            .selectFrom('campaigns')
            .select('status')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).status === 'Report Generated',
    );
    const rows = await recipientsOf(t, id);
    const row = (phone: string) => rows.find((r) => r.phone === phone)!;
    expect(row(a!.body.to)).toMatchObject({ state: 'read', provider_message_id: a!.id });
    expect(row(b!.body.to)).toMatchObject({ state: 'failed', error_code: '131026' });
    expect(rows.filter((r) => r.state === 'delivered')).toHaveLength(28);
    const failed = await t.db
      .selectFrom('campaign_recipients')
      .select('error_text')
      .where('campaign_id', '=', id)
      .where('state', '=', 'failed')
      .executeTakeFirstOrThrow();
    expect(failed.error_text).toBe('Message Undeliverable');
  });
});

describe('error outcomes the engine acts on', () => {
  it('130429 slows the sender and costs no attempt; 131056 delays only that recipient', async () => {
    const to = ['919820000001', '919820000002', '919820000003'];
    fake.refuse = (body, nth) => {
      if (body.to === to[0] && nth === 1) return { code: 130429, title: 'Rate limit hit' };
      if (body.to === to[1] && nth <= 2) return { code: 131056, title: 'pair rate limit hit' };
      return null;
    };
    const id = await approved(to, []);
    await runDispatchSlice(deps({ sliceMs: 300 }), id, 0);
    const sender = await t.db
      .selectFrom('senders')
      .select('throttled_until')
      .where('id', '=', senderId)
      .executeTakeFirstOrThrow();
    expect(sender.throttled_until).not.toBeNull();
    const rows = await recipientsOf(t, id);
    const row = (p: string) => rows.find((r) => r.phone === p)!;
    expect(row(to[2]!)).toMatchObject({ state: 'sent', attempts: 1 });
    expect(row(to[1]!)).toMatchObject({ state: 'queued', error_code: '131056' });
    expect(row(to[1]!).next_attempt_at!.getTime()).toBeGreaterThan(Date.now() - 1000);
    await until('all sent', async () => (await campaignOf(t, id)).dispatch_state === 'done');
    const done = await recipientsOf(t, id);
    // The throttled try was not counted; the pair-limited ones were.
    expect(done.find((r) => r.phone === to[0])).toMatchObject({ state: 'sent', attempts: 1 });
    expect(done.find((r) => r.phone === to[1])).toMatchObject({ state: 'sent', attempts: 3 });
    expect(sentTo(to[1]!)).toHaveLength(1);
  });

  it('an unknown code is retried, at most the attempts allowed, then fails the recipient with it', async () => {
    fake.refuse = () => ({ code: 135999, title: 'Something Meta added' });
    const id = await approved(['919850000001'], []);
    // depsFor allows 3 attempts.
    for (let i = 0; i < 3; i++) {
      await makeRetriesDue(t, id);
      await runDispatchSlice(deps({ sliceMs: 200 }), id, 0);
    }
    expect((await recipientsOf(t, id))[0]).toMatchObject({
      state: 'failed',
      attempts: 3,
      error_code: '135999',
    });
    expect(sentTo('919850000001')).toHaveLength(0);
    expect(fake.requests.filter((r) => r.body.includes('919850000001'))).toHaveLength(3);
  });

  it('131048 in a send answer pauses the campaign, puts the row back uncounted and tells the Admin', async () => {
    const to = ['919830000001'];
    fake.refuse = () => ({ code: 131048, title: 'Spam rate limit hit' });
    const id = await approved(to, []);
    await runDispatchSlice(deps({ sliceMs: 300 }), id, 0);
    expect((await campaignOf(t, id)).dispatch_state).toBe('paused');
    expect((await recipientsOf(t, id))[0]).toMatchObject({ state: 'queued', attempts: 0 });
    const notes = await notificationsOf(t, adminId);
    expect(notes.at(-1)).toMatchObject({
      event_type: 'campaign_status',
      message: msg.notifyCampaignPausedByProvider({ name: 'Hello' }, 'Spam rate limit hit'),
      link: campaignLink(id),
    });
  });

  it('a failed status with 132015 pauses the campaign; one with 131050 fails the recipient', async () => {
    // The fourth number keeps the sending running (its retries are due later).
    const to = ['919840000001', '919840000002', '919840000003', '919840000004'];
    fake.refuse = (body) =>
      body.to === to[3] ? { code: 131056, title: 'pair rate limit hit' } : null;
    const id = await approved(to, []);
    await runDispatchSlice(deps({ sliceMs: 300 }), id, 0);
    await fake.postStatuses(hook(), [
      waStatus(sentTo(to[0]!)[0]!, 'failed', new Date(), {
        code: 131050,
        title: 'stopped marketing',
      }),
    ]);
    expect((await campaignOf(t, id)).dispatch_state).not.toBe('paused');
    const before = (await notificationsOf(t, adminId)).length;
    await fake.postStatuses(hook(), [
      waStatus(sentTo(to[1]!)[0]!, 'failed', new Date(), {
        code: 132015,
        title: 'Template is Paused',
      }),
    ]);
    expect((await campaignOf(t, id)).dispatch_state).toBe('paused');
    const notes = await notificationsOf(t, adminId);
    expect(notes).toHaveLength(before + 1);
    expect(notes.at(-1)!.message).toContain('Template is Paused');
    const rows = await recipientsOf(t, id);
    expect(rows.map((r) => [r.state, r.error_code])).toEqual([
      ['failed', '131050'],
      ['failed', '132015'],
      ['sent', null],
      ['queued', '131056'],
    ]);
  });

  it('a 131050 failure and a STOP reply put the number on the owner’s list; START takes it off', async () => {
    const to = ['919840000011', '919840000012'];
    const id = await approved(to, []);
    await runDispatchSlice(deps({ sliceMs: 300 }), id, 0);
    const owner = (
      await t.db
        .selectFrom('campaigns')
        .select('user_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).user_id;
    const listed = async () =>
      (
        await t.db
          .selectFrom('suppressions')
          .select(['phone', 'source'])
          .where('owner_id', '=', owner)
          .orderBy('phone')
          .execute()
      ).map((r) => `${r.phone}:${r.source}`);
    await fake.postStatuses(hook(), [
      waStatus(sentTo(to[0]!)[0]!, 'failed', new Date(), {
        code: 131050,
        title: 'User has stopped marketing messages',
      }),
    ]);
    expect(await listed()).toEqual([`${to[0]}:provider`]);
    const reply = (from: string, body: string) => ({
      from,
      id: `wamid.reply-${from}-${body}`,
      timestamp: String(Math.floor(Date.now() / 1000)),
      type: 'text',
      text: { body },
    });
    const res = await fake.postInbound(hook(), [reply(to[1]!, ' stop ')]);
    expect(res.status).toBe(200);
    expect(await listed()).toEqual([`${to[0]}:provider`, `${to[1]}:keyword`]);
    // A repeat changes nothing; a reply that is not a keyword is ignored.
    await fake.postInbound(hook(), [reply(to[1]!, 'STOP'), reply(to[0]!, 'please stop')]);
    expect(await listed()).toEqual([`${to[0]}:provider`, `${to[1]}:keyword`]);
    await fake.postInbound(hook(), [reply(to[1]!, 'START')]);
    expect(await listed()).toEqual([`${to[0]}:provider`]);
  });
});

describe('a disabled provider', () => {
  it('sends nothing: its campaigns wait and go on once it is enabled again', async () => {
    const enable = (enabled: boolean) =>
      t.request({
        method: 'PUT',
        url: `/api/delivery/providers/${providerId}`,
        token: admin,
        payload: {
          name: 'WhatsApp',
          enabled,
          settings: { baseUrl: fake.url, apiVersion: WA.apiVersion },
        },
      });
    expect((await enable(false)).statusCode).toBe(200);
    const id = await approved(['919810099001', '919810099002'], []);
    await runDispatchSlice(deps({ sliceMs: 200 }), id, 0);
    const waiting = await campaignOf(t, id);
    expect(waiting.dispatch_state).toBe('waiting');
    expect(waiting.dispatch_resume_at!.getTime()).toBeGreaterThan(Date.now() + 30_000);
    expect(fake.messages).toHaveLength(0);
    // Its webhooks still work: statuses of what it sent before are not lost.
    expect((await fake.postStatuses(hook(), [])).status).toBe(200);

    expect((await enable(true)).statusCode).toBe(200);
    await t.db
      .updateTable('campaigns')
      .set({ dispatch_resume_at: new Date(Date.now() - 1000) })
      .where('id', '=', id)
      .execute();
    await runDispatchSlice(deps({ sliceMs: 300 }), id, 0);
    expect(fake.messages.map((m) => m.body.to).sort()).toEqual(['919810099001', '919810099002']);
  });
});

describe('the provider’s callback URL and secrets', () => {
  it('needs its own token segment: without it, or with another, nothing is read', async () => {
    const withoutToken = t.baseUrl + callback.slice(0, callback.lastIndexOf('/'));
    expect((await fake.postStatuses(withoutToken, [])).status).toBe(401);
    expect((await fake.postStatuses(`${withoutToken}/not-the-token`, [])).status).toBe(401);
    expect((await fake.postStatuses(hook(), [])).status).toBe(200);
  });

  it('writes none of its secrets, nor its callback token, to the logs', () => {
    const token = callback.slice(callback.lastIndexOf('/') + 1);
    const all = logs.join('');
    // The requests were logged (debug), with the token's segment replaced.
    expect(all).toContain('[token]');
    for (const secret of [WA.accessToken, WA.appSecret, WA.verifyToken, token]) {
      expect(all).not.toContain(secret);
    }
  });
});

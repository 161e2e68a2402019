import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDeliveryApp, type DeliveryTestApp } from '../../../../test/delivery-harness.js';
import { NORMAL } from '../../campaigns/campaign-actions.test-fixtures.js';
import {
  depsFor,
  insertProviderRow,
  recipientsOf,
  startedCampaign,
} from '../dispatch/dispatch.test-fixtures.js';
import { runDispatchSlice } from '../dispatch/dispatcher.js';
import { ProviderSendError, type OutboundMessage, type ProviderError } from './provider.js';
import { createProviderAdapter } from './registry.js';
import type { SmsHttpAdapter } from './sms-http.js';
import { webhookUrl } from './webhook-url.js';
import { JasminFake } from './fakes/jasmin-fake.js';
import { TwilioFake } from './fakes/twilio-fake.js';

/**
 * The HTTP SMS adapter's two presets against their fakes: Jasmin's form-encoded sends and DLRs
 * answered `ACK/Jasmin` through the token URL, Twilio's sends and signed callbacks, each
 * refusal class (the signature algorithm and the inbound bodies: sms-presets.test.ts), and a campaign
 * sent and reported end to end by provider message id.
 */

const TOKEN = 'jasmin-callback-token-0123456789abcdef';
const JASMIN = { username: 'herald', password: 'secret' };
const TWILIO = { accountSid: 'AC0123456789abcdef0123456789abcdef', authToken: 'twilio-token' };

let t: DeliveryTestApp;
let admin: string;
let jasmin: JasminFake;
let twilio: TwilioFake;
let jasminAdapter: SmsHttpAdapter;
let twilioAdapter: SmsHttpAdapter;
/** The providers' keys: their rows' ids. */
let jasminKey: string;
let twilioKey: string;

beforeAll(async () => {
  t = await startDeliveryApp();
  admin = await t.adminToken();
  jasmin = await JasminFake.start(JASMIN);
  twilio = await TwilioFake.start(TWILIO);
  jasminKey = await insertProviderRow(t, 'jasmin');
  twilioKey = await insertProviderRow(t, 'twilio');
  const deps = { db: t.db, files: t.app.ctx.files, publicBaseUrl: t.baseUrl };
  jasminAdapter = createProviderAdapter(
    'jasmin',
    { baseUrl: jasmin.url, from: 'HERALD' },
    { ...JASMIN, callbackToken: TOKEN },
    { ...deps, name: jasminKey },
  ) as SmsHttpAdapter;
  twilioAdapter = createProviderAdapter(
    'twilio',
    { baseUrl: twilio.url, from: '+15005550006' },
    { username: TWILIO.accountSid, password: TWILIO.authToken },
    { ...deps, name: twilioKey },
  ) as SmsHttpAdapter;
  t.app.ctx.delivery.register(jasminAdapter);
  t.app.ctx.delivery.register(twilioAdapter);
});
afterAll(async () => {
  await jasmin?.close();
  await twilio?.close();
  await t?.close();
});
beforeEach(() => {
  jasmin.sends.length = 0;
  jasmin.refuse = () => null;
  twilio.messages.length = 0;
  twilio.refuse = () => null;
});

const message = (over: Partial<OutboundMessage> = {}): OutboundMessage => ({
  reference: '6f1c2a9e-3b4d-4c5e-8f70-112233445566:919876500001',
  campaignId: '6f1c2a9e-3b4d-4c5e-8f70-112233445566',
  to: '919876500001',
  creditType: NORMAL,
  message: 'Hello there',
  media: [],
  cta: null,
  ...over,
});

const refusalOf = async (a: SmsHttpAdapter, m = message()): Promise<ProviderError> => {
  const err = await a.send(m).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ProviderSendError);
  return (err as ProviderSendError).error;
};

/** A campaign of `to` sent through `adapter` by its own sender row (one dispatch slice). */
async function sentThrough(adapter: SmsHttpAdapter, to: string[]): Promise<string> {
  const id = await startedCampaign(t, admin, to);
  const sender = await t.db
    .insertInto('senders')
    .values({
      name: `${adapter.name}-${id}`,
      provider_id: adapter.name,
      rate_per_second: 100,
      bucket_tokens: 100,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.db.updateTable('campaigns').set({ sender_id: sender.id }).where('id', '=', id).execute();
  await runDispatchSlice(depsFor(t, adapter), id, 0);
  return id;
}

describe('Jasmin preset', () => {
  const dlrUrl = () => webhookUrl(t.baseUrl, jasminKey, TOKEN);

  it('sends form-encoded fields with a level 3 DLR to the token URL, and reads the id', async () => {
    const sent = await jasminAdapter.send(message());
    expect(jasmin.sends).toHaveLength(1);
    expect(sent.providerMessageId).toBe(jasmin.sends[0]!.id);
    expect(jasmin.requests.at(-1)!.headers['content-type']).toBe(
      'application/x-www-form-urlencoded',
    );
    expect(jasmin.sends[0]!.fields).toEqual({
      username: 'herald',
      password: 'secret',
      to: '919876500001',
      from: 'HERALD',
      coding: '0',
      content: 'Hello there',
      dlr: 'yes',
      'dlr-url': dlrUrl(),
      'dlr-level': '3',
      'dlr-method': 'POST',
    });
  });

  it('sends text outside GSM 03.38 as UCS-2 hex-content with coding 8', async () => {
    await jasminAdapter.send(message({ message: 'नमस्ते' }));
    const f = jasmin.sends[0]!.fields;
    expect(f.coding).toBe('8');
    expect(f.content).toBeUndefined();
    expect(Buffer.from(f['hex-content']!, 'hex').swap16().toString('utf16le')).toBe('नमस्ते');
  });

  it('reads each documented refusal into its class', async () => {
    const cases: [number, string, string][] = [
      [403, 'User throughput exceeded', 'throttled'],
      [403, 'Cannot charge submit_sm, check RouterPB log file for details', 'pause_campaign'],
      [412, 'No route found', 'permanent'],
      [400, 'Argument to has an invalid value: x.', 'permanent'],
      [500, 'Cannot send submit_sm, check SMPPClientManagerPB log file for details', 'retryable'],
    ];
    for (const [status, text, kind] of cases) {
      jasmin.refuse = () => ({ status, message: text });
      const e = await refusalOf(jasminAdapter);
      expect(e).toEqual({ code: String(status), text });
      expect(jasminAdapter.classifyError(e), text).toBe(kind);
    }
    const wrong = createProviderAdapter(
      'jasmin',
      { baseUrl: jasmin.url, from: 'HERALD' },
      { ...JASMIN, password: 'nope', callbackToken: TOKEN },
      { db: t.db, files: t.app.ctx.files, publicBaseUrl: t.baseUrl },
    );
    jasmin.refuse = () => null;
    const auth = (await wrong.send(message()).catch((e: unknown) => e)) as ProviderSendError;
    expect(auth.error).toEqual({ code: '403', text: 'Authentication failure for username:herald' });
    expect(wrong.classifyError(auth.error)).toBe('pause_campaign');
  });

  it('a campaign is sent, its DLRs answered ACK/Jasmin and applied by Jasmin id', async () => {
    const to = ['919811100001', '919811100002', '919811100003'];
    const id = await sentThrough(jasminAdapter, to);
    expect(jasmin.sends.map((s) => s.fields.to).sort()).toEqual(to);
    const idOf = (phone: string) => jasmin.sends.find((s) => s.fields.to === phone)!.id;

    const level1 = await jasmin.throwAt(dlrUrl(), {
      id: idOf(to[0]!),
      message_status: 'ESME_ROK',
      level: '1',
      connector: 'smpp1',
    });
    expect(level1).toMatchObject({
      throws: 1,
      acked: true,
      last: { status: 200, text: 'ACK/Jasmin' },
    });
    await jasmin.throwAt(dlrUrl(), {
      id: idOf(to[0]!),
      id_smsc: '2567',
      message_status: 'DELIVRD',
      level: '2',
      connector: 'smpp1',
      subdate: '2612020700',
      donedate: '2612020701',
      sub: '001',
      dlvrd: '001',
      err: '000',
      text: 'Hello',
    });
    await jasmin.throwAt(dlrUrl(), {
      id: idOf(to[1]!),
      message_status: 'UNDELIV',
      level: '2',
      connector: 'smpp1',
      err: '001',
    });
    // An MO on the same URL is acknowledged and changes no receipt.
    const mo = await jasmin.throwAt(dlrUrl(), {
      id: 'b6a6d2f8-mo',
      from: '919811100003',
      to: 'HERALD',
      'origin-connector': 'smpp1',
      content: 'STOP',
      binary: '53544f50',
    });
    expect(mo.acked).toBe(true);

    const rows = await recipientsOf(t, id);
    expect(rows.map((r) => [r.phone, r.state, r.error_code])).toEqual([
      ['919811100001', 'delivered', null],
      ['919811100002', 'failed', 'UNDELIV'],
      ['919811100003', 'sent', null],
    ]);
  });

  it('refuses a DLR without the token or with a wrong one (401), changing nothing', async () => {
    const fields = { id: 'whatever', message_status: 'DELIVRD', level: '2' };
    const base = webhookUrl(t.baseUrl, jasminKey);
    for (const url of [base, `${base}/wrong-token`]) {
      const r = await jasmin.throwAt(url, fields, { maxRetries: 0 });
      expect(r).toMatchObject({ acked: false, last: { status: 401 } });
    }
    // Jasmin throws again what is not acknowledged.
    const r = await jasmin.throwAt(base, fields, { maxRetries: 2, retryDelayMs: 1 });
    expect(r.throws).toBe(3);
  });
});

describe('Twilio preset', () => {
  const callbackUrl = () => webhookUrl(t.baseUrl, twilioKey);

  it('sends To, From, Body and StatusCallback with Basic auth, and reads the sid', async () => {
    const sent = await twilioAdapter.send(message());
    expect(sent.providerMessageId).toMatch(/^SM[0-9a-f]{32}$/);
    expect(twilio.messages[0]!.fields).toEqual({
      To: '+919876500001',
      From: '+15005550006',
      Body: 'Hello there',
      StatusCallback: callbackUrl(),
    });
  });

  it('reads Twilio error JSON into its class', async () => {
    const cases: [number, number, string][] = [
      [20429, 429, 'throttled'],
      [21610, 400, 'opted_out'],
      [21211, 400, 'permanent'],
      [30001, 400, 'retryable'],
      [20500, 500, 'retryable'],
    ];
    for (const [code, status, kind] of cases) {
      twilio.refuse = () => ({ code, status, message: `error ${code}` });
      const e = await refusalOf(twilioAdapter);
      expect(e.code).toBe(String(code));
      expect(twilioAdapter.classifyError(e), String(code)).toBe(kind);
    }
  });

  it('signed callbacks are applied by SID; an unsigned or wrong one is refused, changing nothing', async () => {
    const to = ['919822200001', '919822200002'];
    const id = await sentThrough(twilioAdapter, to);
    const sidOf = (phone: string) => twilio.messages.find((m) => m.fields.To === `+${phone}`)!.sid;

    const forged = twilio.statusParams(sidOf(to[0]!), 'delivered');
    const wrong = await twilio.post(
      callbackUrl(),
      forged,
      twilio.sign(callbackUrl(), forged, 'not-the-token'),
    );
    expect(wrong.status).toBe(401);
    const tampered = await twilio.post(
      callbackUrl(),
      { ...forged, MessageStatus: 'read' },
      twilio.sign(callbackUrl(), forged),
    );
    expect(tampered.status).toBe(401);
    expect((await recipientsOf(t, id)).map((r) => r.state)).toEqual(['sent', 'sent']);

    const ok = await twilio.post(callbackUrl(), twilio.statusParams(sidOf(to[0]!), 'delivered'));
    expect(ok).toMatchObject({
      status: 200,
      text: '<?xml version="1.0" encoding="UTF-8"?><Response></Response>',
    });
    expect(ok.contentType).toMatch(/^text\/xml/);
    await twilio.post(callbackUrl(), twilio.statusParams(sidOf(to[1]!), 'undelivered', 30003));
    const rows = await recipientsOf(t, id);
    expect(rows.map((r) => [r.state, r.error_code])).toEqual([
      ['delivered', null],
      ['failed', '30003'],
    ]);
  });
});

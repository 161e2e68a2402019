import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/app-error.js';
import { ProviderSendError, type OutboundMessage } from './provider.js';
import { SimulatorAdapter, SIGNATURE_HEADER } from './simulator.js';
import { SimulatorServer } from './simulator-server.js';
import { signBody } from './simulator-events.js';
import { startReceiver, waitFor } from './simulator-test-kit.js';

/** The simulator adapter: what the engine sees of sends, refusals and webhooks. */

const SECRET = 'adapter-test-secret';
const open: { close(): unknown }[] = [];

async function setup(ratePerSecond = 10_000) {
  const sim = await SimulatorServer.start({
    ratePerSecond,
    failRatio: 0,
    readRatio: 0,
    delayMs: 5,
    secret: SECRET,
  });
  const adapter = new SimulatorAdapter(sim.url, SECRET);
  open.push(sim, adapter);
  return { sim, adapter };
}

const message = (to: string, reference = `camp:${to}`): OutboundMessage => ({
  reference,
  campaignId: 'camp',
  to,
  creditType: 'With CTA - domestic',
  message: 'Hello',
  media: [{ kind: 'image', key: 'uploads/campaigns/a.png', mime: 'image/png' }],
  cta: { url: { url: 'https://example.com', text: 'Open' } },
});

/** The refusal `send` threw, or a failure if it did not throw one. */
async function refusal(p: Promise<unknown>): Promise<ProviderSendError> {
  const err = await p.then(
    () => new Error('expected the send to be refused'),
    (e: unknown) => e,
  );
  if (!(err instanceof ProviderSendError)) throw err;
  return err;
}

afterEach(async () => {
  while (open.length) await open.pop()?.close();
});

describe('simulator adapter', () => {
  it('is the simulated provider and sends with the reference', async () => {
    const { sim, adapter } = await setup();
    expect(adapter).toMatchObject({ name: 'simulator', simulated: true });
    const a = await adapter.send(message('15551234567'));
    const b = await adapter.send(message('15551234567'));
    expect(a.providerMessageId).toMatch(/^sim-/);
    expect(b).toEqual(a);
    expect(sim.stats()).toMatchObject({ accepted: 1, duplicates: 1 });
  });

  it('throws the provider code and text, which classify as the engine needs', async () => {
    const { adapter } = await setup();
    const permanent = await refusal(adapter.send(message('15550000')));
    expect(permanent.error).toMatchObject({ code: '131026', text: 'Message undeliverable' });
    expect(adapter.classifyError(permanent.error)).toBe('permanent');

    const pair = await refusal(adapter.send(message('15551313')));
    expect(pair.error.code).toBe('131056');
    expect(adapter.classifyError(pair.error)).toBe('recipient_throttled');

    const transient = await refusal(adapter.send(message('15555000')));
    expect(transient.error.code).toBe('500'); // no provider code: the HTTP status
    expect(adapter.classifyError(transient.error)).toBe('retryable');
    await expect(adapter.send(message('15555000'))).resolves.toHaveProperty('providerMessageId');
  });

  it('reads the rate cap as throttled', async () => {
    const { adapter } = await setup(1);
    await adapter.send(message('15551111'));
    const limited = await refusal(adapter.send(message('15552222')));
    expect(limited.error).toMatchObject({ code: '130429', text: 'Rate limit hit' });
    expect(adapter.classifyError(limited.error)).toBe('throttled');
  });

  it('sends a batch in one request with one answer per message, each counted as if alone', async () => {
    const { sim, adapter } = await setup(30);
    expect(adapter.maxBatch).toBeGreaterThan(1);
    const answers = await adapter.sendBatch([
      message('15551111'),
      message('15550000'),
      message('15551111'),
      message('15552222'),
    ]);
    expect(answers[0]).toMatchObject({
      ok: true,
      providerMessageId: expect.stringMatching(/^sim-/),
    });
    expect(answers[1]).toEqual({
      ok: false,
      error: { code: '131026', text: 'Message undeliverable' },
    });
    // The same reference again: its first id (idempotency), and a token spent.
    expect(answers[2]).toEqual(answers[0]);
    // The cap (30/s, a burst of 3) counts each message: the fourth is over it.
    expect(answers[3]).toEqual({ ok: false, error: { code: '130429', text: 'Rate limit hit' } });
    expect(sim.stats()).toMatchObject({ accepted: 1, duplicates: 1, rejected: 1, throttled: 1 });
  });

  it('reads a provider it cannot reach as retryable', async () => {
    const { sim, adapter } = await setup();
    await sim.close();
    const err = await refusal(adapter.send(message('15551111')));
    expect(err.error.code).toBe('network');
    expect(adapter.classifyError(err.error)).toBe('retryable');
  });

  it('classifies bare HTTP statuses: 429 throttled, 5xx retryable, other 4xx permanent', () => {
    const adapter = new SimulatorAdapter('http://127.0.0.1:9', SECRET);
    open.push(adapter);
    const c = (code: string) => adapter.classifyError({ code, text: '' });
    expect([c('429'), c('503'), c('400'), c('404'), c('131049')]).toEqual([
      'throttled',
      'retryable',
      'permanent',
      'permanent',
      'permanent',
    ]);
  });

  it('accepts only a callback signed with its secret over the exact body', () => {
    const adapter = new SimulatorAdapter('http://127.0.0.1:9', SECRET);
    open.push(adapter);
    const raw = Buffer.from('{"events":[]}');
    const good = signBody(SECRET, raw);
    expect(adapter.verifyCallback({ [SIGNATURE_HEADER]: good }, raw)).toBe(true);
    expect(
      adapter.verifyCallback({ [SIGNATURE_HEADER]: good }, Buffer.from('{"events":[1]}')),
    ).toBe(false);
    const wrongSecret = signBody('another-secret', raw);
    expect(adapter.verifyCallback({ [SIGNATURE_HEADER]: wrongSecret }, raw)).toBe(false);
    expect(adapter.verifyCallback({}, raw)).toBe(false);
    expect(adapter.verifyCallback({ [SIGNATURE_HEADER]: good.slice(7) }, raw)).toBe(false);
    expect(adapter.verifyCallback({ [SIGNATURE_HEADER]: 'sha256=abc' }, raw)).toBe(false);
    expect(adapter.verifyCallback({ [SIGNATURE_HEADER]: [good] }, raw)).toBe(false);
  });

  it('parses a status callback into events and refuses a malformed one with 400', () => {
    const adapter = new SimulatorAdapter('http://127.0.0.1:9', SECRET);
    open.push(adapter);
    const events = adapter.parseStatusCallback({
      events: [
        { reference: 'c:1', id: 'sim-1', status: 'sent', timestamp: '2026-01-02T03:04:05.006Z' },
        {
          reference: 'c:2',
          id: 'sim-2',
          status: 'failed',
          timestamp: '2026-01-02T03:04:05.006Z',
          error: { code: 131049, title: 'Message not delivered' },
        },
      ],
    });
    expect(events).toEqual([
      {
        reference: 'c:1',
        providerMessageId: 'sim-1',
        state: 'sent',
        at: new Date('2026-01-02T03:04:05.006Z'),
      },
      {
        reference: 'c:2',
        providerMessageId: 'sim-2',
        state: 'failed',
        at: new Date('2026-01-02T03:04:05.006Z'),
        error: { code: '131049', text: 'Message not delivered' },
      },
    ]);
    for (const bad of [
      null,
      {},
      { events: [{ reference: 'c:1', status: 'queued', timestamp: '2026-01-02T03:04:05Z' }] },
      { events: [{ reference: 'c:1', status: 'sent', timestamp: 'yesterday' }] },
      { events: [{ status: 'sent', timestamp: '2026-01-02T03:04:05Z' }] },
    ]) {
      expect(() => adapter.parseStatusCallback(bad)).toThrow(AppError);
    }
  });

  it('verifies and parses what the simulator really posts', async () => {
    const r = await startReceiver();
    open.push(r);
    const { sim, adapter } = await setup();
    sim.setCallbackUrl(r.url);
    const sent = await adapter.send(message('15557777'));
    await waitFor(() => sim.stats().eventsPending === 0);
    const parsed = r.received.flatMap((c) => {
      expect(adapter.verifyCallback(c.headers, c.raw)).toBe(true);
      return adapter.parseStatusCallback(JSON.parse(c.raw.toString()));
    });
    expect(parsed.map((e) => [e.reference, e.providerMessageId, e.state])).toEqual([
      ['camp:15557777', sent.providerMessageId, 'sent'],
      ['camp:15557777', sent.providerMessageId, 'delivered'],
    ]);
  });

  it('refuses numbers ending 1050 with 131050, read as the person opting out', async () => {
    const { adapter } = await setup();
    const opted = await refusal(adapter.send(message('15551050')));
    expect(opted.error.code).toBe('131050');
    expect(adapter.classifyError(opted.error)).toBe('opted_out');
    // Always: an opt-out is not a transient refusal.
    expect((await refusal(adapter.send(message('15551050')))).error.code).toBe('131050');
  });

  it('posts a person’s reply signed, on loopback only, and parses it as an inbound message', async () => {
    const r = await startReceiver();
    open.push(r);
    const { sim, adapter } = await setup();
    const ask = (body: unknown) =>
      fetch(`${sim.url}/v1/inbound`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${SECRET}` },
        body: JSON.stringify(body),
      });
    // No callback URL yet: nowhere to post it.
    expect((await ask({ from: '15551234', text: 'STOP' })).status).toBe(409);
    sim.setCallbackUrl(r.url);
    expect((await ask({ from: 'not-digits', text: 'STOP' })).status).toBe(400);
    const res = await ask({ from: '15551234', text: 'STOP' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: number }).status).toBe(200);
    const [posted] = r.received;
    expect(posted && adapter.verifyCallback(posted.headers, posted.raw)).toBe(true);
    const body: unknown = JSON.parse(posted!.raw.toString());
    expect(adapter.parseStatusCallback(body)).toEqual([]);
    expect(adapter.parseInbound(body)).toEqual([
      { from: '15551234', to: null, text: 'STOP', at: expect.any(Date) as Date },
    ]);
    expect(() => adapter.parseInbound({ messages: [{ from: 'x', text: 1 }] })).toThrow(AppError);
  });
});

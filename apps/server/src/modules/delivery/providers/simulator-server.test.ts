import { afterEach, describe, expect, it } from 'vitest';
import {
  SIMULATOR_CODES,
  SimulatorServer,
  outcomeOf,
  type SimulatorOptions,
} from './simulator-server.js';
import { CALLBACK_BATCH_MAX, signBody, type WireStatusEvent } from './simulator-events.js';
import { postJson, startReceiver, waitFor, type Receiver } from './simulator-test-kit.js';

/** The simulator as a provider would behave: rate cap, idempotency, test numbers, webhooks. */

const SECRET = 'simulator-test-secret';
const open: { close(): Promise<void> }[] = [];

async function start(opts: Partial<SimulatorOptions> = {}): Promise<SimulatorServer> {
  const sim = await SimulatorServer.start({
    ratePerSecond: 10_000,
    failRatio: 0,
    readRatio: 0,
    delayMs: 5,
    secret: SECRET,
    ...opts,
  });
  open.push(sim);
  return sim;
}

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  open.push(r);
  return r;
}

/** A number that no test rule matches (it ends in 7). */
const num = (i: number) => `1555${String(i).padStart(6, '0')}7`;
const msg = (reference: string, to: string) => ({ reference, to, type: 'text', text: 'hello' });
const events = (r: Receiver): WireStatusEvent[] =>
  r.received.flatMap((c) => (JSON.parse(c.raw.toString()) as { events: WireStatusEvent[] }).events);

afterEach(async () => {
  while (open.length) await open.pop()?.close();
});

describe('simulator server', () => {
  it('accepts up to its rate and answers 429 code 130429 above it', async () => {
    const rate = 20;
    const sim = await start({ ratePerSecond: rate });
    const began = Date.now();
    let ok = 0;
    let limited = 0;
    for (let i = 0; Date.now() - began < 1000; i++) {
      const res = await postJson(`${sim.url}/v1/messages`, msg(`rate:${i}`, num(i)), SECRET);
      if (res.status === 200) ok++;
      else {
        expect(res.status).toBe(429);
        expect(res.body.error).toEqual({
          code: SIMULATOR_CODES.rateLimit,
          message: 'Rate limit hit',
        });
        limited++;
      }
    }
    const seconds = (Date.now() - began) / 1000;
    // The burst is 0.1 s worth (2 here), then `rate` per second.
    expect(ok).toBeLessThanOrEqual(Math.ceil(2 + rate * seconds));
    expect(ok).toBeGreaterThanOrEqual(Math.floor(rate * 0.5));
    expect(limited).toBeGreaterThan(0);
    expect(sim.stats()).toMatchObject({ accepted: ok, throttled: limited });
  });

  it('answers the first id again for a repeated reference and delivers it once', async () => {
    const r = await receiver();
    const sim = await start({ callbackUrl: r.url });
    const first = await postJson(`${sim.url}/v1/messages`, msg('c:15551234', '15551234'), SECRET);
    const again = await postJson(`${sim.url}/v1/messages`, msg('c:15551234', '15551234'), SECRET);
    expect(first.status).toBe(200);
    expect(again).toEqual({ status: 200, body: { id: first.body.id } });
    await waitFor(() => sim.stats().eventsPending === 0);
    expect(events(r).map((e) => e.status)).toEqual(['sent', 'delivered']);
    const stats = await (await fetch(`${sim.url}/v1/stats`)).json();
    expect(stats).toEqual({
      accepted: 1,
      duplicates: 1,
      throttled: 0,
      rejected: 0,
      eventsPending: 0,
      eventsDelivered: 2,
    });
  });

  it('refuses numbers ending 0000 permanently, 1313 twice (131056), 5000 once (500)', async () => {
    const sim = await start();
    const send = (to: string) => postJson(`${sim.url}/v1/messages`, msg(`rules:${to}`, to), SECRET);
    for (let i = 0; i < 3; i++) {
      expect(await send('15550000')).toEqual({
        status: 400,
        body: { error: { code: SIMULATOR_CODES.undeliverable, message: 'Message undeliverable' } },
      });
    }
    for (let i = 0; i < 2; i++) {
      const res = await send('15551313');
      expect(res.status).toBe(429);
      expect(res.body.error?.code).toBe(SIMULATOR_CODES.pairRateLimit);
    }
    expect((await send('15551313')).status).toBe(200);
    const transient = await send('15555000');
    expect(transient.status).toBe(500);
    expect(transient.body.error?.code).toBeUndefined();
    expect((await send('15555000')).status).toBe(200);
    expect(sim.stats()).toMatchObject({ accepted: 2, rejected: 6 });
  });

  it('refuses a body without a reference or a digits-only number', async () => {
    const sim = await start();
    for (const body of [{ to: '15551111' }, msg('x', '+1555'), msg('', '15551111')]) {
      const res = await postJson(`${sim.url}/v1/messages`, body, SECRET);
      expect(res).toEqual({
        status: 400,
        body: { error: { code: SIMULATOR_CODES.invalidParameter, message: 'Invalid parameter' } },
      });
    }
  });

  it('reports sent, then delivered or failed by ratio, then read, signed', async () => {
    const r = await receiver();
    const sim = await start({ callbackUrl: r.url, failRatio: 0.3, readRatio: 0.5 });
    const refs = Array.from({ length: 40 }, (_, i) => `out:${num(i)}`);
    for (const ref of refs) {
      await postJson(`${sim.url}/v1/messages`, msg(ref, ref.slice(4)), SECRET);
    }
    await waitFor(() => sim.stats().eventsPending === 0);
    for (const c of r.received) {
      expect(c.headers['x-herald-signature']).toBe(signBody(SECRET, c.raw));
    }
    const all = events(r);
    let failed = 0;
    for (const ref of refs) {
      // Arrival order may vary between concurrent batches; the event times may not.
      const mine = all
        .filter((e) => e.reference === ref)
        .sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
      const o = outcomeOf(ref, 0.3, 0.5);
      if (o.failed) failed++;
      const expected = ['sent', o.failed ? 'failed' : 'delivered', ...(o.read ? ['read'] : [])];
      expect(mine.map((e) => e.status)).toEqual(expected);
      expect(new Set(mine.map((e) => e.id)).size).toBe(1);
      const times = mine.map((e) => Date.parse(e.timestamp));
      expect(new Set(times).size).toBe(times.length); // each a delay after the one before
      const fail = mine.find((e) => e.status === 'failed');
      if (fail) expect(fail.error).toEqual({ code: 131049, title: 'Message not delivered' });
    }
    // The outcome follows the ratio, not all or nothing.
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThan(refs.length);
  });

  it('batches events (at most 500 a POST) and keeps a refused batch until it is taken', async () => {
    const r = await receiver();
    r.answers.push(500, 503);
    const sim = await start({ callbackUrl: r.url, delayMs: 200 });
    const n = 1200;
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        postJson(`${sim.url}/v1/messages`, msg(`batch:${i}`, num(i)), SECRET),
      ),
    );
    await waitFor(() => sim.stats().eventsPending === 0, 20_000);
    expect(r.answers).toEqual([]); // both refusals were served, then retried
    const sizes = r.received.map(
      (c) => (JSON.parse(c.raw.toString()) as { events: [] }).events.length,
    );
    expect(Math.max(...sizes)).toBeLessThanOrEqual(CALLBACK_BATCH_MAX);
    expect(sizes.length).toBeLessThan(n); // batched, not one POST per event
    const all = events(r);
    expect(all).toHaveLength(2 * n); // sent + delivered each, none lost, none twice
    expect(new Set(all.map((e) => `${e.reference}/${e.status}`)).size).toBe(2 * n);
    expect(sim.stats()).toMatchObject({ accepted: n, eventsPending: 0, eventsDelivered: 2 * n });
  });

  it('holds events until a callback URL is set', async () => {
    const sim = await start();
    await postJson(`${sim.url}/v1/messages`, msg('wait:15553333', '15553333'), SECRET);
    await new Promise((res) => setTimeout(res, 100));
    expect(sim.stats()).toMatchObject({ eventsPending: 2, eventsDelivered: 0 });
    const r = await receiver();
    sim.setCallbackUrl(r.url);
    await waitFor(() => sim.stats().eventsPending === 0);
    expect(events(r).map((e) => e.status)).toEqual(['sent', 'delivered']);
  });
});

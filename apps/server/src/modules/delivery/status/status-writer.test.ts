import { describe, expect, it } from 'vitest';
import type { Log } from '../../../context.js';
import type { StatusEvent } from '../providers/provider.js';
import type { WriterEvent } from './status-writer.js';
import { parseReference, StatusWriter } from './status-writer.js';

/** The batcher alone: how events group into writes, and when a request's promise settles. */

const CAMPAIGN = '6f1c2a9e-3b4d-4c5e-8f70-112233445566';
const quiet: Log = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };

function events(n: number, from = 0): StatusEvent[] {
  return Array.from({ length: n }, (_, i) => ({
    reference: `${CAMPAIGN}:91${String(from + i).padStart(8, '0')}`,
    providerMessageId: null,
    state: 'delivered' as const,
    at: new Date(0),
  }));
}

/** A write the test releases by hand, recording each batch it was given. */
function gatedWrite() {
  const batches: WriterEvent[][] = [];
  const gates: { open: () => void; fail: (e: Error) => void }[] = [];
  const write = (batch: WriterEvent[]) => {
    batches.push(batch);
    return new Promise<{ unknown: number }>((resolve, reject) => {
      gates.push({ open: () => resolve({ unknown: 0 }), fail: reject });
    });
  };
  return { batches, gates, write };
}

const settled = async (p: Promise<unknown>) => {
  let state = 'pending';
  p.then(
    () => (state = 'resolved'),
    () => (state = 'rejected'),
  );
  // Two turns of the microtask queue let an already-settled promise report.
  await new Promise((r) => setImmediate(r));
  return state;
};

describe('StatusWriter', () => {
  it('gathers what arrives during a write into the next single write', async () => {
    const g = gatedWrite();
    const w = new StatusWriter(g.write, quiet);
    const first = w.submit(events(3));
    const later = Array.from({ length: 20 }, (_, i) => w.submit(events(5, 100 + i * 5)));
    expect(g.batches.map((b) => b.length)).toEqual([3]);
    expect(await settled(first)).toBe('pending');
    g.gates[0]?.open();
    await first;
    // The 20 requests that came meanwhile: one write of their 100 events.
    expect(g.batches.map((b) => b.length)).toEqual([3, 100]);
    expect(await settled(Promise.all(later))).toBe('pending');
    g.gates[1]?.open();
    await Promise.all(later);
    expect(w.stats).toMatchObject({ batches: 2, events: 103, unknown: 0 });
  });

  it('caps a batch at maxEvents; a request split over two batches waits for both', async () => {
    const g = gatedWrite();
    const w = new StatusWriter(g.write, quiet, { maxEvents: 1000 });
    const blocker = w.submit(events(1));
    const big = w.submit(events(2500, 10));
    g.gates[0]?.open();
    await blocker;
    expect(g.batches.map((b) => b.length)).toEqual([1, 1000]);
    g.gates[1]?.open();
    await new Promise((r) => setImmediate(r));
    expect(await settled(big)).toBe('pending');
    g.gates[2]?.open();
    await new Promise((r) => setImmediate(r));
    expect(await settled(big)).toBe('pending');
    g.gates[3]?.open();
    await big;
    expect(g.batches.map((b) => b.length)).toEqual([1, 1000, 1000, 500]);
  });

  it('a failed write rejects the requests in it and no others', async () => {
    const g = gatedWrite();
    const w = new StatusWriter(g.write, quiet);
    const a = w.submit(events(2));
    const b = w.submit(events(2, 50));
    g.gates[0]?.fail(new Error('deadlock detected'));
    await expect(a).rejects.toThrow('deadlock detected');
    g.gates[1]?.open();
    await expect(b).resolves.toBeUndefined();
    expect(w.stats).toMatchObject({ batches: 1, failedBatches: 1 });
  });

  it('counts references that name no recipient without writing them', async () => {
    const g = gatedWrite();
    const w = new StatusWriter(g.write, quiet);
    const bad = [
      { ...events(1)[0], reference: 'no-colon' },
      { ...events(1)[0], reference: 'not-a-uuid:9100000001' },
      { ...events(1)[0], reference: `${CAMPAIGN}:` },
    ] as StatusEvent[];
    await w.submit(bad);
    expect(g.batches).toEqual([]);
    expect(w.stats.unknown).toBe(3);
  });

  it('close waits for accepted events and then refuses new ones', async () => {
    const g = gatedWrite();
    const w = new StatusWriter(g.write, quiet);
    const a = w.submit(events(1));
    const closing = w.close();
    expect(await settled(closing)).toBe('pending');
    g.gates[0]?.open();
    await closing;
    await a;
    await expect(w.submit(events(1))).rejects.toThrow('closed');
  });
});

describe('parseReference', () => {
  it('splits `${campaignId}:${phone}` and refuses anything else', () => {
    expect(parseReference(`${CAMPAIGN.toUpperCase()}:919876543210`)).toEqual({
      campaignId: CAMPAIGN,
      phone: '919876543210',
    });
    expect(parseReference('abc:123')).toBeNull();
    expect(parseReference(CAMPAIGN)).toBeNull();
    expect(parseReference(`${CAMPAIGN}:`)).toBeNull();
    expect(parseReference(`${CAMPAIGN}:${'1'.repeat(65)}`)).toBeNull();
    // The id checked last is remembered; a reference that only starts like it is not let in.
    expect(parseReference(`${CAMPAIGN}:1`)).toEqual({ campaignId: CAMPAIGN, phone: '1' });
    expect(parseReference(`${CAMPAIGN}0:1`)).toBeNull();
    expect(parseReference(`${'g'.repeat(36)}:1`)).toBeNull();
    expect(parseReference(`${CAMPAIGN}:2`)).toEqual({ campaignId: CAMPAIGN, phone: '2' });
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LatestParse, type LiveResult } from './latest-parse';

/** A parse whose answers the test releases by hand, in any order. */
function manualParse() {
  const calls: { input: string; resolve: (n: number) => void; reject: (e: Error) => void }[] = [];
  const parse = vi.fn(
    (input: string) =>
      new Promise<number>((resolve, reject) => calls.push({ input, resolve, reject })),
  );
  return { parse, calls };
}

let delivered: LiveResult<number>[];
const deliver = (r: LiveResult<number>) => delivered.push(r);

beforeEach(() => {
  vi.useFakeTimers();
  delivered = [];
});
afterEach(() => vi.useRealTimers());

describe('LatestParse', () => {
  it('parses only the text that rested for the delay', async () => {
    const { parse, calls } = manualParse();
    const live = new LatestParse(parse, deliver, 300);
    live.update('1');
    await vi.advanceTimersByTimeAsync(200);
    live.update('12');
    await vi.advanceTimersByTimeAsync(299);
    expect(parse).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.map((c) => c.input)).toEqual(['12']);
    calls[0]!.resolve(12);
    await vi.advanceTimersByTimeAsync(0);
    expect(delivered).toEqual([{ ok: true, value: 12 }]);
  });

  it('drops the answer of a text replaced while it was parsing, even when it comes last', async () => {
    const { parse, calls } = manualParse();
    const live = new LatestParse(parse, deliver, 300);
    live.update('old');
    await vi.advanceTimersByTimeAsync(300);
    live.update('new');
    await vi.advanceTimersByTimeAsync(300);
    expect(calls.map((c) => c.input)).toEqual(['old', 'new']);
    calls[1]!.resolve(2);
    calls[0]!.resolve(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(delivered).toEqual([{ ok: true, value: 2 }]);
    await expect(live.settle()).resolves.toEqual({ ok: true, value: 2 });
  });

  it('settles a waiting text at once, without waiting out the delay', async () => {
    const live = new LatestParse((s: string) => Promise.resolve(s.length), deliver, 300);
    live.update('abc');
    const settled = live.settle();
    await vi.advanceTimersByTimeAsync(0);
    await expect(settled).resolves.toEqual({ ok: true, value: 3 });
    expect(delivered).toEqual([{ ok: true, value: 3 }]);
    // The timer was spent: nothing is parsed twice.
    await vi.advanceTimersByTimeAsync(1000);
    expect(delivered).toHaveLength(1);
  });

  it('settles the newest text when one arrives while settling', async () => {
    const { parse, calls } = manualParse();
    const live = new LatestParse(parse, deliver, 300);
    live.update('a');
    const settled = live.settle();
    await vi.advanceTimersByTimeAsync(0);
    live.update('ab');
    calls[0]!.resolve(1);
    await vi.advanceTimersByTimeAsync(0);
    calls[1]!.resolve(2);
    await expect(settled).resolves.toEqual({ ok: true, value: 2 });
  });

  it('has no result after cancel, and reports a failed parse', async () => {
    const { parse, calls } = manualParse();
    const live = new LatestParse(parse, deliver, 300);
    await expect(live.settle()).resolves.toBeUndefined();
    live.update('x');
    await vi.advanceTimersByTimeAsync(300);
    live.cancel();
    calls[0]!.resolve(1);
    await expect(live.settle()).resolves.toBeUndefined();
    expect(delivered).toEqual([]);
    live.update('y');
    await vi.advanceTimersByTimeAsync(300);
    const error = new Error('worker gone');
    calls[1]!.reject(error);
    await expect(live.settle()).resolves.toEqual({ ok: false, error });
    expect(delivered).toEqual([{ ok: false, error }]);
  });
});

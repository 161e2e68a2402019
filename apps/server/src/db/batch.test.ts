import { describe, expect, it } from 'vitest';
import { batchLoader } from './batch.js';

interface Row {
  id: string;
  n: number;
}

function loader(maxBatch?: number, fail?: (keys: string[]) => boolean) {
  const calls: string[][] = [];
  const load = batchLoader(
    async (keys: string[]) => {
      calls.push(keys);
      await new Promise((r) => setTimeout(r, 1));
      if (fail?.(keys)) throw new Error('read failed');
      return keys.filter((k) => !k.startsWith('missing')).map((id) => ({ id, n: Number(id) }));
    },
    (row: Row) => row.id,
    maxBatch,
  );
  return { load, calls };
}

describe('batchLoader', () => {
  it('reads the keys asked for together with one call, each caller getting its own row', async () => {
    const { load, calls } = loader();
    const rows = await Promise.all(['1', '2', '3', '2', 'missing-4'].map((k) => load(k)));
    expect(rows).toEqual([
      { id: '1', n: 1 },
      { id: '2', n: 2 },
      { id: '3', n: 3 },
      { id: '2', n: 2 },
      undefined,
    ]);
    expect(calls).toEqual([['1', '2', '3', 'missing-4']]);
  });

  it('reads again for keys asked for later: nothing is kept between rounds', async () => {
    const { load, calls } = loader();
    await load('1');
    await load('1');
    expect(calls).toEqual([['1'], ['1']]);
  });

  it('a round is one turn of the event loop: ticks and microtasks join it, a later turn does not', async () => {
    const { load, calls } = loader();
    const first = load('1');
    await new Promise((r) => process.nextTick(r));
    await Promise.resolve();
    const second = load('2');
    await new Promise((r) => setImmediate(r));
    const third = load('3');
    await Promise.all([first, second, third]);
    expect(calls).toEqual([['1', '2'], ['3']]);
  });

  it('splits a large round into calls of at most maxBatch keys', async () => {
    const { load, calls } = loader(2);
    const keys = ['1', '2', '3', '4', '5'];
    const rows = await Promise.all(keys.map((k) => load(k)));
    expect(rows.map((r) => r?.id)).toEqual(keys);
    expect(calls).toEqual([['1', '2'], ['3', '4'], ['5']]);
  });

  it('fails only the callers whose call failed', async () => {
    const { load } = loader(1, (keys) => keys.includes('2'));
    const results = await Promise.allSettled(['1', '2', '2', '3'].map((k) => load(k)));
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
  });

  it('rejects the callers, never throws, when the read throws at once or a row is bad', async () => {
    const throwing = batchLoader(
      (): Promise<Row[]> => {
        throw new Error('at once');
      },
      (row: Row) => row.id,
    );
    await expect(Promise.all([throwing('1'), throwing('2')])).rejects.toThrow('at once');
    const badRow = batchLoader(
      async (keys: string[]) => keys.map((id) => ({ id, n: 0 })),
      (): string => {
        throw new Error('no key');
      },
    );
    await expect(badRow('1')).rejects.toThrow('no key');
  });
});

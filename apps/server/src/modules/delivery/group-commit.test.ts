import { describe, expect, it } from 'vitest';
import { GroupCommit, retryingConflicts } from './group-commit.js';

/** The group-commit batcher both engine writers share: grouping, settling, failures, draining. */

/** A flush the test completes by hand, recording each group it was given. */
function gatedFlush() {
  const groups: number[][] = [];
  const gates: { open: () => void; fail: (e: Error) => void }[] = [];
  const flush = (items: number[]) => {
    groups.push(items);
    return new Promise<void>((resolve, reject) => gates.push({ open: resolve, fail: reject }));
  };
  return { groups, gates, flush };
}

async function stateOf(p: Promise<unknown>): Promise<'pending' | 'resolved' | 'rejected'> {
  let state: 'pending' | 'resolved' | 'rejected' = 'pending';
  p.then(
    () => (state = 'resolved'),
    () => (state = 'rejected'),
  );
  await new Promise((r) => setImmediate(r));
  return state;
}

const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

describe('GroupCommit', () => {
  it('flushes the first item at once and everything that came meanwhile as the next group', async () => {
    const g = gatedFlush();
    const batcher = new GroupCommit(g.flush);
    const first = batcher.submit([1]);
    const later = range(2, 50).map((n) => batcher.submit([n]));
    expect(g.groups).toEqual([[1]]);
    expect(batcher.pending).toBe(50);
    expect(await stateOf(first)).toBe('pending');
    g.gates[0]?.open();
    await first;
    expect(g.groups).toEqual([[1], range(2, 50)]);
    expect(await stateOf(Promise.all(later))).toBe('pending');
    g.gates[1]?.open();
    await Promise.all(later);
    expect(batcher.pending).toBe(0);
  });

  it('cuts groups at maxItems, and a submit spanning two groups waits for both', async () => {
    const g = gatedFlush();
    const batcher = new GroupCommit(g.flush, { maxItems: 4 });
    const a = batcher.submit(range(0, 3));
    const b = batcher.submit(range(3, 6));
    expect(g.groups).toEqual([range(0, 3)]);
    g.gates[0]?.open();
    await a;
    expect(g.groups).toEqual([range(0, 3), range(3, 4)]);
    expect(await stateOf(b)).toBe('pending');
    g.gates[1]?.open();
    await new Promise((r) => setImmediate(r));
    expect(g.groups.at(-1)).toEqual([7, 8]);
    expect(await stateOf(b)).toBe('pending');
    g.gates[2]?.open();
    await b;
  });

  it('runs up to `concurrency` flushes at once', async () => {
    const g = gatedFlush();
    const batcher = new GroupCommit(g.flush, { maxItems: 2, concurrency: 2 });
    const all = batcher.submit(range(0, 6));
    expect(g.groups).toEqual([
      [0, 1],
      [2, 3],
    ]);
    g.gates[1]?.open();
    await new Promise((r) => setImmediate(r));
    expect(g.groups).toHaveLength(3);
    g.gates[0]?.open();
    g.gates[2]?.open();
    await all;
  });

  it("rejects only the failed group's callers, and goes on with the next group", async () => {
    const g = gatedFlush();
    const batcher = new GroupCommit(g.flush);
    const failed = batcher.submit([1]);
    const next = batcher.submit([2]);
    g.gates[0]?.fail(new Error('deadlock'));
    await expect(failed).rejects.toThrow('deadlock');
    expect(g.groups).toEqual([[1], [2]]);
    g.gates[1]?.open();
    await expect(next).resolves.toBeUndefined();
  });

  it('drained() waits for the queued and running groups, and answers at once when idle', async () => {
    const g = gatedFlush();
    const batcher = new GroupCommit(g.flush);
    expect(await stateOf(batcher.drained())).toBe('resolved');
    void batcher.submit([1]);
    void batcher.submit([2]);
    const drained = batcher.drained();
    g.gates[0]?.open();
    expect(await stateOf(drained)).toBe('pending');
    g.gates[1]?.fail(new Error('lost'));
    expect(await stateOf(drained)).toBe('resolved');
  });
});

describe('retryingConflicts', () => {
  const conflict = (code: string) => Object.assign(new Error(code), { code });

  it('writes again after a deadlock or a serialization failure, up to the tries given', async () => {
    let calls = 0;
    const answer = await retryingConflicts(
      async () => {
        calls++;
        if (calls === 1) throw conflict('40P01');
        if (calls === 2) throw conflict('40001');
        return 'written';
      },
      3,
      () => 0,
    );
    expect(answer).toBe('written');
    expect(calls).toBe(3);
    calls = 0;
    await expect(
      retryingConflicts(
        async () => {
          calls++;
          throw conflict('40P01');
        },
        3,
        () => 0,
      ),
    ).rejects.toThrow('40P01');
    expect(calls).toBe(3);
  });

  it('throws any other error at once', async () => {
    let calls = 0;
    await expect(
      retryingConflicts(
        async () => {
          calls++;
          throw conflict('23505');
        },
        5,
        () => 0,
      ),
    ).rejects.toThrow('23505');
    expect(calls).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { SendLimiter } from './send-limiter.js';

/** The dispatcher holds a place from a send until its result is committed (crash bound). */
describe('SendLimiter', () => {
  it('gives no more places than its limit until one is given back', async () => {
    const limiter = new SendLimiter(2);
    const a = await limiter.acquire();
    await limiter.acquire();
    let third = false;
    const waiting = limiter.acquire().then((release) => {
      third = true;
      return release;
    });
    await Promise.resolve();
    expect(third).toBe(false);
    expect(limiter.inUse).toBe(2);
    a();
    const c = await waiting;
    expect(third).toBe(true);
    expect(limiter.inUse).toBe(2);
    c();
    expect(limiter.inUse).toBe(1);
  });

  it('a place given back twice frees it once', async () => {
    const limiter = new SendLimiter(1);
    const a = await limiter.acquire();
    a();
    a();
    expect(limiter.inUse).toBe(0);
    await limiter.acquire();
    expect(limiter.inUse).toBe(1);
  });

  it('run frees its place when the function fails', async () => {
    const limiter = new SendLimiter(1);
    await expect(limiter.run(() => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(limiter.inUse).toBe(0);
  });
});

describe('SendLimiter.acquireMany', () => {
  it('grants a batch its places at once, in arrival order', async () => {
    const limiter = new SendLimiter(4);
    const first = await limiter.acquireMany(3);
    const order: string[] = [];
    const big = limiter.acquireMany(3).then((r) => (order.push('big'), r));
    const small = limiter.acquireMany(1).then((r) => (order.push('small'), r));
    await Promise.resolve();
    // One place is free, but the batch that came first waits for its three and goes first.
    expect(order).toEqual([]);
    first.forEach((release) => release());
    await big;
    await small;
    expect(order).toEqual(['big', 'small']);
    expect(limiter.inUse).toBe(4);
  });
});

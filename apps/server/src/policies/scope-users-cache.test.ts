import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../context.js';
import { cachedForCaller, forgetScopeUsers } from './scope-users-cache.js';

const ctx = {} as AppContext;
const admin = { id: 'a', role: 'Admin' as const, ancestors: [] };
const reseller = { id: 'r', role: 'Reseller' as const, ancestors: [] };

afterEach(() => {
  vi.useRealTimers();
  forgetScopeUsers(ctx);
});

describe('cachedForCaller', () => {
  it('reads once per caller within the TTL, again after it or after a user change', async () => {
    vi.useFakeTimers();
    let reads = 0;
    const load = () => Promise.resolve(++reads);
    expect(await cachedForCaller(ctx, admin, load)).toBe(1);
    expect(await cachedForCaller(ctx, admin, load)).toBe(1);
    expect(await cachedForCaller(ctx, reseller, load)).toBe(2);
    vi.advanceTimersByTime(5_001);
    expect(await cachedForCaller(ctx, admin, load)).toBe(3);
    forgetScopeUsers(ctx);
    expect(await cachedForCaller(ctx, admin, load)).toBe(4);
  });

  it('does not keep a failed read', async () => {
    await expect(
      cachedForCaller(ctx, admin, () => Promise.reject(new Error('db'))),
    ).rejects.toThrow('db');
    await Promise.resolve();
    expect(await cachedForCaller(ctx, admin, () => Promise.resolve('ok'))).toBe('ok');
  });

  it('keeps each app apart', async () => {
    const other = {} as AppContext;
    await cachedForCaller(ctx, admin, () => Promise.resolve('first'));
    expect(await cachedForCaller(other, admin, () => Promise.resolve('second'))).toBe('second');
  });
});

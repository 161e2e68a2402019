import type { AppContext } from '../context.js';
import type { Actor } from './scope.js';

/**
 * "All Relevant Users" (the caller's scope, by name) for Transaction History's first page:
 * an Admin's is every user, 100 kB for 1,000 of them, read on each filter change. It is kept
 * a few seconds per caller and dropped by any user change on this instance; another instance's
 * change shows within TTL_MS (a dropdown's list, never a permission: scope checks read the
 * database).
 */
const TTL_MS = 5_000;
const MAX_CALLERS = 1_000;

interface Entry<T> {
  expires: number;
  value: Promise<T>;
}

const caches = new WeakMap<AppContext, Map<string, Entry<unknown>>>();

export async function cachedForCaller<T>(
  ctx: AppContext,
  actor: Actor,
  load: () => Promise<T>,
): Promise<T> {
  let cache = caches.get(ctx);
  if (!cache) caches.set(ctx, (cache = new Map()));
  const now = Date.now();
  const hit = cache.get(actor.id) as Entry<T> | undefined;
  if (hit && hit.expires > now) return hit.value;
  if (cache.size >= MAX_CALLERS) cache.clear();
  const value = load();
  cache.set(actor.id, { expires: now + TTL_MS, value });
  // A failed read is not kept.
  value.catch(() => cache.delete(actor.id));
  return value;
}

/** Any user created, edited or removed: every caller's list is read again. */
export function forgetScopeUsers(ctx: AppContext): void {
  caches.get(ctx)?.clear();
}

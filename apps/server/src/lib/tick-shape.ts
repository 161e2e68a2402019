import { createHook } from 'node:async_hooks';

let pinned: object | undefined;

/**
 * Keeps one of `process.nextTick`'s queue entries referenced for the life of the process, so
 * that V8 never drops the hidden classes ("maps") those entries share (performance.md target 14).
 *
 * Node makes each entry with a literal whose first keys are computed:
 * `{ [async_id_symbol]: id, [trigger_async_id_symbol]: trigger, callback, args }`. V8 (11.x, in
 * Node 20) remembers one map per such key and, on seeing any other map there, switches the site
 * to its generic runtime path for good: these sites have no polymorphic state.
 *
 * An entry lives for microseconds, so on an idle server none exists. V8's memory reducer then
 * runs full GCs that, unlike ordinary ones, keep no unreferenced maps: the entries' maps go, the
 * next entry is built on new ones, and from then on every `nextTick` is a runtime call. An HTTP
 * request makes about five (stream ends, writes, resume); that cost about 2 us a request, a
 * quarter of `GET /api/session`, and it came and went with whether the server had sat idle
 * after its start or after password hashing.
 *
 * The pinned entry keeps its map and, through the maps' back pointers, the whole chain from the
 * literal's first map, so the maps survive every GC. One tiny object; nothing else changes.
 * Returns the pinned entry (the same one on every call).
 */
export function pinTickObjectShape(): object | undefined {
  if (pinned) return pinned;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') pinned = resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(() => {});
  } finally {
    hook.disable();
  }
  return pinned;
}

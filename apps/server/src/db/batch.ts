/**
 * Coalesces the reads that arrive together into one statement (the DataLoader pattern): every
 * key asked for while the event loop handles one round of I/O is read by a single query, sent
 * once the round ends (setImmediate). Under load a round holds many requests, so one round trip
 * to PostgreSQL serves them all (performance.md target 15); alone, a request waits for nothing
 * but the end of its own round. Each read starts after its request arrived, so it sees every
 * write committed before that: nothing is cached between rounds.
 */
export function batchLoader<K, R>(
  /** Reads the rows of these keys (distinct, at most `maxBatch`), in any order. */
  load: (keys: K[]) => Promise<readonly R[]>,
  keyOf: (row: R) => K,
  maxBatch = 256,
): (key: K) => Promise<R | undefined> {
  let waiting = new Map<K, Waiter<R>[]>();
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    const round = waiting;
    waiting = new Map();
    const keys = [...round.keys()];
    for (let i = 0; i < keys.length; i += maxBatch) {
      const part = keys.slice(i, i + maxBatch);
      const settle = (each: (w: Waiter<R>, key: K) => void) => {
        for (const key of part) for (const w of round.get(key)!) each(w, key);
      };
      // Whatever fails (a synchronous throw, a rejection, a bad row) rejects this part's callers:
      // never an uncaught error in setImmediate, never a caller left waiting.
      Promise.resolve()
        .then(() => load(part))
        .then((rows) => new Map(rows.map((row) => [keyOf(row), row] as const)))
        .then(
          (found) => settle((w, key) => w.resolve(found.get(key))),
          (err: unknown) => settle((w) => w.reject(err)),
        );
    }
  };

  return (key) =>
    new Promise<R | undefined>((resolve, reject) => {
      const list = waiting.get(key);
      if (list) list.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}

interface Waiter<R> {
  resolve(row: R | undefined): void;
  reject(err: unknown): void;
}

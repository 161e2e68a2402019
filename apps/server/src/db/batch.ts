import DataLoader from 'dataloader';

/**
 * Coalesces the reads that arrive together into one statement, with DataLoader: every key asked for
 * during one turn of the event loop is read by a single query, sent once the turn ends
 * (setImmediate). Under load a turn holds many requests, so one round trip to PostgreSQL serves
 * them all (docs/performance.md, request CPU); alone, a request waits for nothing but the end of
 * its own turn. Each read starts after its request arrived, so it sees every write committed before
 * that: nothing is cached between rounds. A failed read rejects only the callers of its batch.
 */
export function batchLoader<K, R>(
  /** Reads the rows of these keys (distinct, at most `maxBatch`), in any order. */
  load: (keys: K[]) => Promise<readonly R[]>,
  keyOf: (row: R) => K,
  maxBatch = 256,
): (key: K) => Promise<R | undefined> {
  const loader = new DataLoader<K, R | undefined>(
    // async: a read that throws at once, or a row without a key, rejects the batch's callers.
    async (keys) => {
      const rows = await load([...new Set(keys)]);
      const found = new Map(rows.map((row) => [keyOf(row), row] as const));
      return keys.map((key) => found.get(key));
    },
    {
      // Without a cache DataLoader passes a key asked for twice twice: the Set above merges them.
      cache: false,
      maxBatchSize: maxBatch,
      batchScheduleFn: (dispatch) => setImmediate(dispatch),
    },
  );
  return (key) => loader.load(key);
}

import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { CopySource, runCopy } from './copy.js';
import { preparedName } from './prepared.js';

/**
 * The pool as Kysely's dialect takes it. Each client it hands out runs a query whose only
 * parameter is a CopySource as COPY FROM STDIN on itself (copy.ts), sends the texts of
 * prepared.ts under their statement names, and passes every other query straight to pg.
 */
export function kyselyPool(pool: pg.Pool): PostgresPool {
  return {
    connect: async () => wrap(await pool.connect()),
    end: () => pool.end(),
  };
}

const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();

function wrap(client: pg.PoolClient): PostgresPoolClient {
  let wrapped = wrappers.get(client);
  if (!wrapped) {
    const query = (text: unknown, params?: readonly unknown[]): unknown => {
      if (typeof text === 'string' && params !== undefined) {
        if (params.length === 1 && params[0] instanceof CopySource) {
          return runCopy(client, text, params[0]);
        }
        const name = preparedName(text);
        const values = params as unknown[];
        if (name !== undefined) return client.query({ name, text, values });
        return client.query(text, values);
      }
      return (client.query as (q: unknown) => unknown)(text);
    };
    wrapped = { query: query as PostgresPoolClient['query'], release: () => client.release() };
    // Kysely keys its connections by this object: the same client keeps the same wrapper.
    wrappers.set(client, wrapped);
  }
  return wrapped;
}

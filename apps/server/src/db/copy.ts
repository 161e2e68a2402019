import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CompiledQuery } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { DbOrTx } from './database.js';

/**
 * COPY ... FROM STDIN through Kysely, on the connection of the transaction it is run in (so the
 * rows commit or roll back with everything else the transaction wrote).
 *
 * Kysely's pg connection hides its client, so the pool handed to Kysely wraps each client
 * (kysely-pool.ts): a query whose only parameter is a CopySource runs as a COPY
 * (pg-copy-streams) on that very client.
 */

/** The data of one COPY FROM STDIN: chunks in the statement's format (text, csv or binary). */
export class CopySource {
  constructor(readonly chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>) {}
}

/** Runs `copySql` (a COPY ... FROM STDIN) with `chunks` as its data; answers the rows copied. */
export async function copyIn(
  db: DbOrTx,
  copySql: string,
  chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
): Promise<number> {
  const result = await db.executeQuery<{ rowCount: number }>(
    CompiledQuery.raw(copySql, [new CopySource(chunks)]),
  );
  return result.rows[0]?.rowCount ?? 0;
}

export async function runCopy(client: pg.PoolClient, copySql: string, source: CopySource) {
  const stream = client.query(copyFrom(copySql));
  // A failing source destroys the stream: pg-copy-streams sends CopyFail, the server aborts
  // the COPY (and with it the transaction), and the connection is ready for the ROLLBACK.
  await pipeline(Readable.from(source.chunks, { objectMode: false }), stream);
  return { command: 'COPY', rowCount: stream.rowCount, rows: [{ rowCount: stream.rowCount }] };
}

import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { copyFrames } from './copy-frames.js';

/**
 * copy-frames.ts reads COPY's CopyData frames straight off the socket: every row comes once as a
 * whole frame, a notice between rows is skipped, and an error midway fails the stream and gives
 * the connection back to node-postgres in a state it can go on with.
 */

let t: TestApp;
let client: pg.PoolClient;
beforeAll(async () => {
  t = await createTestApp();
  client = await t.app.ctx.pool.connect();
  await client.query(`CREATE FUNCTION pg_temp.noisy(i int) RETURNS int LANGUAGE plpgsql AS $$
    BEGIN IF i % 1000 = 0 THEN RAISE NOTICE 'row %', i; END IF; RETURN i; END $$`);
});
afterAll(async () => {
  client.release(true);
  await t.close();
});

/** The rows of a chunk of frames; each chunk must hold whole frames. */
function rowsOf(chunk: Buffer): string[] {
  const rows: string[] = [];
  for (let p = 0; p < chunk.length;) {
    expect(chunk[p]).toBe(0x64);
    const end = p + 1 + chunk.readUInt32BE(p + 1);
    expect(end).toBeLessThanOrEqual(chunk.length);
    rows.push(chunk.toString('utf8', p + 5, end));
    p = end;
  }
  return rows;
}

describe('copyFrames', () => {
  it('every row once, as whole CopyData frames, notices skipped; the client goes on', async () => {
    const rows: string[] = [];
    const stream = copyFrames(
      client,
      `COPY (SELECT pg_temp.noisy(i), repeat('x', i % 300) FROM generate_series(1, 20000) i)
       TO STDOUT`,
    );
    for await (const chunk of stream as AsyncIterable<Buffer>) rows.push(...rowsOf(chunk));
    expect(rows.length).toBe(20_000);
    expect(stream.rowCount).toBe(20_000);
    rows.forEach((r, i) => expect(r).toBe(`${i + 1}\t${'x'.repeat((i + 1) % 300)}\n`));
    expect((await client.query('SELECT 42 AS n')).rows[0]).toEqual({ n: 42 });
  });

  it('a binary COPY: its header and trailer left out, one tuple per frame, even cut across reads', async () => {
    const tuples: Buffer[] = [];
    // The first row is longer than a read: its frame (with the header) comes in pieces.
    const stream = copyFrames(
      client,
      `COPY (SELECT i, repeat('y', CASE WHEN i = 1 THEN 200000 ELSE i % 300 END)
             FROM generate_series(1, 20000) i) TO STDOUT (FORMAT binary)`,
    );
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      for (let p = 0; p < chunk.length;) {
        expect(chunk[p]).toBe(0x64);
        const end = p + 1 + chunk.readUInt32BE(p + 1);
        tuples.push(chunk.subarray(p + 5, end));
        p = end;
      }
    }
    expect(tuples.length).toBe(20_000);
    expect(stream.rowCount).toBe(20_000);
    tuples.forEach((t, k) => {
      const i = k + 1;
      const n = i === 1 ? 200_000 : i % 300;
      expect([t.readInt16BE(0), t.readInt32BE(2), t.readInt32BE(6), t.readInt32BE(10)]).toEqual([
        2,
        4,
        i,
        n,
      ]);
      expect(t.length).toBe(14 + n);
    });
    // No rows: the header and the trailer come in one frame, and nothing is passed on.
    const none = copyFrames(client, 'COPY (SELECT 1 WHERE false) TO STDOUT (FORMAT binary)');
    const chunks: Buffer[] = [];
    for await (const chunk of none as AsyncIterable<Buffer>) chunks.push(chunk);
    expect(Buffer.concat(chunks).length).toBe(0);
    expect(none.rowCount).toBe(0);
    expect((await client.query('SELECT 42 AS n')).rows[0]).toEqual({ n: 42 });
  });

  it('an error midway fails the stream with it; the client answers the next query', async () => {
    let rows = 0;
    const run = async () => {
      const stream = copyFrames(
        client,
        'COPY (SELECT 1 / (20000 - i) FROM generate_series(1, 30000) i) TO STDOUT',
      );
      for await (const chunk of stream as AsyncIterable<Buffer>) rows += rowsOf(chunk).length;
    };
    await expect(run()).rejects.toThrow(/division by zero/);
    expect(rows).toBeLessThan(20_000);
    expect((await client.query('SELECT 7 AS n')).rows[0]).toEqual({ n: 7 });
  });
});

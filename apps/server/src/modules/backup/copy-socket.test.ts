import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { copyInto, type FrameSink } from './copy-frames.js';
import { backupConnection, isCopySocket, type BackupConnection } from './copy-socket.js';

/**
 * The backup's own connection (copy-socket.ts): node-postgres works on it as on any (queries,
 * transactions), and a COPY through copyInto hands a sink every row once as whole frames, read
 * by read into the socket's one buffer, stopping while the sink is full (on a pool client, the
 * stream copyFrames gives); an error midway fails the COPY and the connection goes on.
 */

let t: TestApp;
let conn: BackupConnection;
beforeAll(async () => {
  t = await createTestApp();
  conn = await backupConnection(t.app.ctx.pool);
  await conn.client.query(`CREATE FUNCTION pg_temp.noisy(i int) RETURNS int LANGUAGE plpgsql AS $$
    BEGIN IF i % 1000 = 0 THEN RAISE NOTICE 'row %', i; END IF; RETURN i; END $$`);
});
afterAll(async () => {
  await conn.release(false);
  await t.close();
});

/** A sink that keeps copies of the rows and is full every few chunks until it has waited. */
class SlowSink implements FrameSink {
  rows: string[] = [];
  fills = 0;
  private held = 0;
  take(frames: Buffer): void {
    for (let p = 0; p < frames.length;) {
      expect(frames[p]).toBe(0x64);
      const end = p + 1 + frames.readUInt32BE(p + 1);
      expect(end).toBeLessThanOrEqual(frames.length);
      this.rows.push(frames.toString('utf8', p + 5, end));
      p = end;
    }
    this.held++;
  }
  get full(): boolean {
    return this.held >= 3;
  }
  async room(): Promise<void> {
    this.fills++;
    await sleep(5);
    this.held = 0;
  }
}

describe('backupConnection and copyInto', () => {
  it('is a connection of its own on a CopySocket, where plain queries work', async () => {
    const stream = (conn.client as unknown as { connection: { stream: unknown } }).connection
      .stream;
    expect(isCopySocket(stream)).toBe(true);
    await conn.client.query('BEGIN');
    const { rows } = await conn.client.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
    expect(rows[0]!.n).toBeGreaterThan(0);
    await conn.client.query('COMMIT');
  });

  it('every row once, notices skipped, reads stopped while the sink is full; then goes on', async () => {
    const sink = new SlowSink();
    await copyInto(
      conn.client,
      `COPY (SELECT pg_temp.noisy(i), repeat('x', i % 300) FROM generate_series(1, 20000) i)
       TO STDOUT`,
      sink,
    );
    expect(sink.rows.length).toBe(20_000);
    sink.rows.forEach((r, i) => expect(r).toBe(`${i + 1}\t${'x'.repeat((i + 1) % 300)}\n`));
    expect(sink.fills).toBeGreaterThan(0);
    expect((await conn.client.query('SELECT 42 AS n')).rows[0]).toEqual({ n: 42 });
  });

  it('on a pool client (as over TLS) the same rows come through the stream, sink full or not', async () => {
    const pooled = await t.app.ctx.pool.connect();
    try {
      const sink = new SlowSink();
      await copyInto(
        pooled,
        `COPY (SELECT i, repeat('y', i % 200) FROM generate_series(1, 20000) i) TO STDOUT`,
        sink,
      );
      expect(sink.rows.length).toBe(20_000);
      sink.rows.forEach((r, i) => expect(r).toBe(`${i + 1}\t${'y'.repeat((i + 1) % 200)}\n`));
      expect(sink.fills).toBeGreaterThan(0);
      expect((await pooled.query('SELECT 5 AS n')).rows[0]).toEqual({ n: 5 });
    } finally {
      pooled.release();
    }
  });

  it('an error midway fails the COPY with it; the connection answers the next query', async () => {
    const sink = new SlowSink();
    await expect(
      copyInto(
        conn.client,
        'COPY (SELECT 1 / (20000 - i) FROM generate_series(1, 30000) i) TO STDOUT',
        sink,
      ),
    ).rejects.toThrow(/division by zero/);
    expect(sink.rows.length).toBeLessThan(20_000);
    expect((await conn.client.query('SELECT 7 AS n')).rows[0]).toEqual({ n: 7 });
  });
});

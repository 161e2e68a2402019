import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { to as copyTo } from 'pg-copy-streams';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/harness.js';
import { tupleEnd } from './copy-binary.js';
import { binaryCopy, copyTuples, type CopyField } from './copy-tuples.test-fixtures.js';
import { BATCH_BYTES, MAX_IN_FLIGHT, TablePipe, type BatchConverter } from './table-pipe.js';

/**
 * The table pipe cuts the binary COPY stream, in chunks cut anywhere, into batches of whole
 * tuples for the worker, with their row counts; it reads no further while too many batches are
 * in flight; a COPY that fails midway fails it.
 */

/** A worker stand-in: keeps each batch's bytes and answers with its row count. */
class Recorder implements BatchConverter {
  readonly batches: { tuples: Buffer; rows: number }[] = [];
  batchBuffer(size: number): Uint8Array {
    // Not zeroed: every cut below asks for new memory, and the pipe writes before it reads.
    return Buffer.allocUnsafeSlow(size);
  }
  convert(tuples: Uint8Array, rows: number): Promise<Buffer> {
    this.batches.push({ tuples: Buffer.from(tuples), rows });
    return Promise.resolve(Buffer.alloc(0));
  }
}

/** The number of whole tuples in `b`; -1 when it holds anything else. */
function wholeTuples(b: Buffer): number {
  let n = 0;
  for (let p = 0; p < b.length; n++) {
    p = tupleEnd(b, p, b.length);
    if (p < 0) return -1;
  }
  return n;
}

const ROWS: CopyField[][] = Array.from({ length: 40 }, (_, i) => [
  `row ${i}`,
  i % 3 ? null : 'x'.repeat(i * 7),
  BigInt(i),
]);

async function pipeChunks(chunks: Buffer[]): Promise<{ rec: Recorder; written: number }> {
  const rec = new Recorder();
  let written = 0;
  const pipe = new TablePipe(rec, async (_xml, rows) => {
    written += rows;
  });
  for (const c of chunks) pipe.take(c);
  await pipe.end();
  return { rec, written };
}

describe('TablePipe', () => {
  it('sends whole tuples only, every row once and in order, wherever the chunks are cut', async () => {
    const stream = binaryCopy(ROWS);
    const tuples = copyTuples(ROWS);
    const bad: string[] = [];
    for (let cut = 0; cut <= stream.length; cut++) {
      // Two chunks cut at `cut`; at some cuts three, the second a few bytes long.
      const ends = cut % 7 === 0 ? [cut, cut + 5, stream.length] : [cut, stream.length];
      const chunks = ends.map((e, i) => stream.subarray(i ? ends[i - 1] : 0, e));
      const { rec, written } = await pipeChunks(chunks.filter((c) => c.length > 0));
      const same = Buffer.concat(rec.batches.map((b) => b.tuples)).equals(tuples);
      const whole = rec.batches.every((b) => wholeTuples(b.tuples) === b.rows);
      if (!same || !whole || written !== ROWS.length) bad.push(`cut at ${cut}`);
    }
    expect(bad).toEqual([]);
  });

  it('byte by byte too, and rows longer than a batch', async () => {
    const rows: CopyField[][] = [['a'], ['b'.repeat(3 * BATCH_BYTES)], ['c'], ['d'.repeat(5)]];
    const stream = binaryCopy(rows);
    const big = await pipeChunks([stream]);
    expect(big.rec.batches.map((b) => b.rows).reduce((a, b) => a + b)).toBe(4);
    expect(Buffer.concat(big.rec.batches.map((b) => b.tuples)).equals(copyTuples(rows))).toBe(true);
    const small = binaryCopy(ROWS.slice(0, 5));
    const bytes = Array.from(small, (_, i) => small.subarray(i, i + 1));
    const one = await pipeChunks(bytes);
    expect(Buffer.concat(one.rec.batches.map((b) => b.tuples))).toEqual(
      copyTuples(ROWS.slice(0, 5)),
    );
  });

  it('fails a stream without its trailer, or with bytes after it', async () => {
    const stream = binaryCopy(ROWS);
    await expect(pipeChunks([stream.subarray(0, -2)])).rejects.toThrow(/before its trailer/);
    await expect(pipeChunks([stream, Buffer.from([0])])).rejects.toThrow(/after the trailer/);
  });

  it('reads no further while the batches in flight wait for the output', async () => {
    const rec = new Recorder();
    let release: () => void = () => {};
    const blocked = new Promise<void>((r) => (release = r));
    const pipe = new TablePipe(rec, () => blocked);
    // A batch of BATCH_BYTES per row: every row makes one.
    const rows: CopyField[][] = Array.from({ length: 3 * MAX_IN_FLIGHT }, () => [
      'r'.repeat(BATCH_BYTES),
    ]);
    const source = new PassThrough({ highWaterMark: 1024 });
    const reading = pipe.read(source);
    const stream = binaryCopy(rows);
    let at = 0;
    while (at < stream.length) {
      const chunk = stream.subarray(at, at + 64 * 1024);
      at += chunk.length;
      if (!source.write(chunk)) {
        const drained = await Promise.race([
          once(source, 'drain').then(() => true),
          sleep(300).then(() => false),
        ]);
        if (!drained) break;
      }
    }
    // The reader stopped with MAX_IN_FLIGHT + 1 batches out, and so the source filled up.
    expect(at).toBeLessThan(stream.length);
    expect(rec.batches.length).toBe(MAX_IN_FLIGHT + 1);
    release();
    source.end(stream.subarray(at));
    await reading;
    expect(rec.batches.map((b) => b.rows).reduce((a, b) => a + b)).toBe(rows.length);
  });

  it('a COPY that fails midway fails the read with its error; the connection answers again', async () => {
    const t = await createTestApp();
    const client = await t.app.ctx.pool.connect();
    try {
      const pipe = new TablePipe(new Recorder(), async () => {});
      const copy = client.query(
        copyTo(
          'COPY (SELECT i, repeat($$x$$, 100) FROM generate_series(1, 200000) i ' +
            'WHERE 1 / (150000 - i) IS NOT NULL) TO STDOUT (FORMAT binary)',
        ),
      );
      await expect(pipe.read(copy)).rejects.toThrow(/division by zero/);
      const { rows } = await client.query<{ one: number }>('SELECT 1 AS one');
      expect(rows[0]!.one).toBe(1);
    } finally {
      client.release();
      await t.close();
    }
  });
});

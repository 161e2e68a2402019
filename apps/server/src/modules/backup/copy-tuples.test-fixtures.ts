import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { expect } from 'vitest';
import { headerEnd, tupleEnd } from './copy-binary.js';

/** A field of a binary COPY tuple: a text (UTF-8 bytes), an int8, or NULL. */
export type CopyField = string | bigint | null;

/**
 * Binary COPY tuples (field count, then each field's length, -1 for NULL, and bytes), as the
 * table pipe hands them to the converter: no header, no trailer.
 */
export function copyTuples(rows: CopyField[][]): Buffer {
  return Buffer.concat(
    rows.map((r) => {
      const fields = r.map((f) => {
        const head = Buffer.alloc(4);
        if (f === null) {
          head.writeInt32BE(-1);
          return head;
        }
        let bytes: Buffer;
        if (typeof f === 'bigint') {
          bytes = Buffer.alloc(8);
          bytes.writeBigInt64BE(f);
        } else bytes = Buffer.from(f, 'utf8');
        head.writeInt32BE(bytes.length);
        return Buffer.concat([head, bytes]);
      });
      const count = Buffer.alloc(2);
      count.writeInt16BE(r.length);
      return Buffer.concat([count, ...fields]);
    }),
  );
}

/** A whole binary COPY stream of `rows`: header (no extension), tuples, trailer. */
export function binaryCopy(rows: CopyField[][]): Buffer {
  const header = Buffer.alloc(19);
  header.write('PGCOPY\n\xff\r\n\0', 'latin1');
  return Buffer.concat([header, copyTuples(rows), Buffer.from([0xff, 0xff])]);
}

/** The tuples of a binary COPY read whole through pg-copy-streams: header and trailer out. */
export async function readTuples(client: pg.ClientBase, sql: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of client.query(copyTo(sql)) as AsyncIterable<Buffer>) chunks.push(c);
  const all = Buffer.concat(chunks);
  const start = headerEnd(all, all.length);
  expect(all.readInt16BE(all.length - 2)).toBe(-1);
  return all.subarray(start, all.length - 2);
}

/** Tuples cut into batches of `size` rows, each in memory of its own. */
export function tupleBatches(all: Buffer, size: number): { tuples: Uint8Array; rows: number }[] {
  const out: { tuples: Uint8Array; rows: number }[] = [];
  for (let at = 0; at < all.length;) {
    let end = at;
    let rows = 0;
    while (rows < size && end < all.length) {
      end = tupleEnd(all, end, all.length);
      rows++;
    }
    out.push({ tuples: Uint8Array.from(all.subarray(at, end)), rows });
    at = end;
  }
  return out;
}

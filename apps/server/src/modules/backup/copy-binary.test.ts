import { describe, expect, it } from 'vitest';
import { headerEnd, INCOMPLETE, TRAILER, tupleEnd } from './copy-binary.js';
import { binaryCopy, copyTuples } from './copy-tuples.test-fixtures.js';

const ROWS = [['a', null, 7n], [], ['', 'ünï', null], [null, null, null]];

/** Walks `b` as the table pipe does: the offsets where the header and each tuple end. */
function walk(b: Buffer, end: number): { header: number; ends: number[]; trailer: boolean } {
  const header = headerEnd(b, end);
  const ends: number[] = [];
  if (header === INCOMPLETE) return { header, ends, trailer: false };
  for (let p = header; ;) {
    const e = tupleEnd(b, p, end);
    if (e === INCOMPLETE) return { header, ends, trailer: false };
    if (e === TRAILER) return { header, ends, trailer: true };
    ends.push(e);
    p = e;
  }
}

describe('binary COPY layout', () => {
  it('finds the header, every tuple and the trailer; a stream cut at any byte has only whole tuples before the cut', () => {
    const stream = binaryCopy(ROWS);
    const whole = walk(stream, stream.length);
    expect(whole.header).toBe(19);
    expect(whole.trailer).toBe(true);
    expect(whole.ends).toHaveLength(ROWS.length);
    expect(stream.subarray(19, whole.ends.at(-1))).toEqual(copyTuples(ROWS));
    for (let cut = 0; cut < stream.length; cut++) {
      const part = walk(stream, cut);
      // Every tuple that ends by the cut is found, none that does not.
      expect(part.ends).toEqual(whole.ends.filter((e) => e <= cut));
      expect(part.trailer).toBe(false);
      if (cut < 19) expect(part.header).toBe(INCOMPLETE);
    }
  });

  it('refuses bytes that are no binary COPY and lengths that cannot be', () => {
    expect(() => headerEnd(Buffer.from('1\tabc\n'), 6)).toThrow(/not a binary COPY/);
    const bad = Buffer.from([0, 1, 0xff, 0xff, 0xff, 0xf0]);
    expect(() => tupleEnd(bad, 0, bad.length)).toThrow(/a field of -16 bytes/);
    expect(() => tupleEnd(Buffer.from([0xff, 0xf0]), 0, 2)).toThrow(/a tuple of -16 fields/);
  });
});

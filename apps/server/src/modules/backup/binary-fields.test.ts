import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { binaryFields as f } from './binary-fields.js';

/**
 * binary-fields.ts reads PostgreSQL's send formats: uuids as their text, integers of each width
 * (past 2^53 as exact digits), timestamptz as the date serial of its epoch milliseconds cut
 * toward zero, and writes digits without a string in between. (copy-to-xml.test.ts checks the
 * same against the JavaScript writer through a real COPY.)
 */

const view = (b: Buffer) => new DataView(b.buffer, b.byteOffset, b.byteLength);
const int8 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(v);
  return view(b);
};
/** Microseconds from 1970 to 2000. */
const PG_EPOCH_US = 946_684_800_000_000n;
const serialOf = (ms: number) => ms / 86_400_000 + 25_569;

describe('binary fields', () => {
  it('a uuid’s 16 bytes as its text, at any place', () => {
    for (let i = 0; i < 200; i++) {
      const id = randomUUID();
      const bytes = Buffer.concat([Buffer.alloc(i % 7), Buffer.from(id.replace(/-/g, ''), 'hex')]);
      const out = Buffer.alloc(50);
      const end = f.uuid(view(bytes), i % 7, view(out), 3 + (i % 5));
      expect(out.toString('latin1', 3 + (i % 5), end)).toBe(id);
    }
  });

  it('int2, int4 and int8 of either sign; past 2^53 the exact digits', () => {
    const two = Buffer.alloc(2);
    for (const v of [0, 1, -1, 32767, -32768]) {
      two.writeInt16BE(v);
      expect(f.int(view(two), 0, 2)).toBe(v);
    }
    const four = Buffer.alloc(4);
    for (const v of [0, 7, -7, 2147483647, -2147483648]) {
      four.writeInt32BE(v);
      expect(f.int(view(four), 0, 4)).toBe(v);
    }
    for (const v of [0n, -1n, 4294967296n, -4294967297n, 9007199254740991n, -9007199254740991n]) {
      expect(f.int(int8(v), 0, 8)).toBe(Number(v));
    }
    for (const v of [9007199254740993n, -9223372036854775808n, 9223372036854775807n]) {
      expect(f.int(int8(v), 0, 8)).toBe(v.toString());
    }
    expect(() => f.int(view(Buffer.alloc(3)), 0, 3)).toThrow(/3 bytes/);
  });

  it('a serial’s digits parse back to the very same number', () => {
    const out = new Uint8Array(40);
    const written = (x: number) => {
      const end = f.serialDigits(out, 1, x);
      return Buffer.from(out.subarray(1, end)).toString('latin1');
    };
    // Every millisecond's serial from 1944 to 4770 (a sample: random, and the edges).
    const samples = [16_384, 1_048_575.9999999, 45_662, 45_662.5, 16_384.000000000004];
    for (let i = 0; i < 200_000; i++) {
      const ms = Math.trunc((Math.random() * 2 - 0.5) * 2 ** 46);
      samples.push(ms / 86_400_000 + 25_569);
    }
    for (const x of samples) {
      const text = written(x);
      expect(Number(text)).toBe(x);
      if (x >= 16_384 && x < 1_048_576) expect(text).toMatch(/^\d+(\.\d*[1-9])?$/);
    }
    expect(written(45_662)).toBe('45662');
    expect(written(45_662.5)).toBe('45662.5');
    // Outside the range: JavaScript's own digits.
    for (const x of [61, -693_593.5, 1_000 / 86_400_000 + 25_569, 2_958_465.999]) {
      expect(written(x)).toBe(String(x));
    }
  });

  it('digits and text written in place, where they end answered', () => {
    const out = new Uint8Array(40);
    for (const x of [
      0,
      5,
      -5,
      10,
      99,
      -100,
      123456789,
      2147483647,
      -2147483647,
      -2147483648,
      2 ** 40,
    ]) {
      const end = f.digits(out, 2, x);
      expect(Buffer.from(out.subarray(2, end)).toString('latin1')).toBe(String(x));
    }
    expect(f.ascii(out, 1, '1.5e-7')).toBe(7);
  });

  it('a timestamptz as the serial of its epoch milliseconds cut toward zero; none for infinities', () => {
    const at = (iso: string, extraUs = 0n) =>
      f.dateSerial(int8(BigInt(Date.parse(iso)) * 1000n + extraUs - PG_EPOCH_US), 0);
    expect(at('2024-02-29T12:34:56.789Z')).toBe(serialOf(Date.UTC(2024, 1, 29, 12, 34, 56, 789)));
    expect(at('2024-02-29T12:34:56.789Z', 999n)).toBe(at('2024-02-29T12:34:56.789Z'));
    // Before 1970 the cut is toward zero, as a Date makes of a fraction of a millisecond.
    expect(at('1969-12-31T23:59:59.999Z', 500n)).toBe(serialOf(0));
    expect(at('1969-12-31T23:59:59.998Z', 500n)).toBe(serialOf(-1));
    expect(at('1900-03-01T00:00:00Z')).toBe(61);
    // Far from 2000 (past 2^53 µs from 1970) the BigInt path gives the same cut.
    expect(at('4000-01-01T00:00:00.001Z', 500n)).toBe(serialOf(Date.UTC(4000, 0, 1, 0, 0, 0, 1)));
    // (Before 1970, half a millisecond more is cut toward zero: the next one up.)
    const early = Date.parse('1000-06-15T00:00:00.001Z');
    expect(at('1000-06-15T00:00:00.001Z', 500n)).toBe(serialOf(early + 1));
    expect(f.dateSerial(int8(9223372036854775807n), 0)).toBeNaN();
    expect(f.dateSerial(int8(-9223372036854775808n), 0)).toBeNaN();
  });
});

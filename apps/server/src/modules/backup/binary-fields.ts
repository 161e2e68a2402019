import { EXCEL_EPOCH_DAYS, MS_PER_DAY } from '../../lib/xlsx-writer.js';

/**
 * For the backup's rate (docs/performance.md, backup rate): the values of a binary COPY (PostgreSQL's send
 * formats, big-endian) as the text a sheet cell holds, written straight into the converter's
 * output (copy-to-xml.ts) with no string in between where it can: a uuid's 16 bytes as its 36
 * characters, an integer's digits, and a timestamptz (microseconds since 2000) as the date serial
 * the sheet writer makes of a Date (whole epoch milliseconds, cut toward zero, / 86,400,000 +
 * 25,569, in float64). A serial of the years 1944 to 4770 is written with 12 decimals (trailing
 * zeros left out): its 17 significant digits are within a third of its last bit's worth, so a
 * reader parses the very same float64 (JavaScript's own shortest digits, String(), cost a
 * ledger's 3 million dates 0.8 s of the worker's CPU; these cost a tenth of that).
 */

export interface BinaryFields {
  /** Writes the uuid at `s` of `from` as text at `at` of `to`; answers where it ends. */
  uuid(from: DataView, s: number, to: DataView, at: number): number;
  /**
   * The int2, int4 or int8 (`n` bytes) at `s`: a number, or past 2^53 its exact digits (a
   * reader makes the same number of them as of JavaScript's).
   */
  int(from: DataView, s: number, n: number): number | string;
  /** The timestamptz at `s` as a date serial; NaN for ±infinity. */
  dateSerial(from: DataView, s: number): number;
  /** Writes a (finite) serial's digits at `at` of `to`; answers where they end. */
  serialDigits(to: Uint8Array, at: number, x: number): number;
  /** Writes an integer's digits at `at` of `to`; answers where they end. */
  digits(to: Uint8Array, at: number, x: number): number;
  /** Writes ASCII text (a number's) at `at` of `to`; answers where it ends. */
  ascii(to: Uint8Array, at: number, text: string): number;
}

/** The two hex digits of a byte, as a little-endian 16-bit word. */
const HEX = new Uint16Array(256);
for (let i = 0; i < 256; i++) {
  const d = (n: number) => (n < 10 ? 48 + n : 87 + n);
  HEX[i] = d(i >> 4) | (d(i & 15) << 8);
}
/** Microseconds from 1970 to 2000, PostgreSQL's epoch. */
const PG_EPOCH_US = 946_684_800_000_000;
const TWO_32 = 4_294_967_296;
/** An int8 whose high word lies in [-2^21, 2^21) is within ±2^53: a float64 holds it. */
const SAFE_HIGH = 0x200000;
/**
 * Serials in [2^14, 2^20) have a last bit worth 2^-38 to 2^-33: 12 decimals (off by at most
 * 0.5e-12, plus 1e-16 for the product) are within half of it.
 */
const FAST_SERIAL_MIN = 16_384;
const FAST_SERIAL_MAX = 1_048_576;
const E6 = 1_000_000;
const E12 = 1_000_000_000_000;

/** The int8 at `s` as a BigInt (one past 2^53). */
const bigInt8 = (from: DataView, s: number): bigint =>
  BigInt.asIntN(64, (BigInt(from.getInt32(s)) << 32n) | BigInt(from.getUint32(s + 4)));

export const digits = (to: Uint8Array, at: number, x: number): number => {
  if (x < -0x7fffffff || x > 0x7fffffff) return ascii(to, at, String(x));
  let v = x;
  let n = at;
  if (v < 0) {
    to[n++] = 0x2d;
    v = -v;
  }
  let k = 1;
  for (let t = v; t >= 10; t = (t / 10) | 0) k++;
  const end = n + k;
  do {
    const q = (v / 10) | 0;
    to[--k + n] = 48 + v - q * 10;
    v = q;
  } while (v > 0);
  return end;
};

/** Writes `v` (0 to 999,999) as 6 digits, zeros first. */
const six = (to: Uint8Array, at: number, v: number): void => {
  let x = v;
  for (let i = at + 5; i >= at; i--) {
    const q = (x / 10) | 0;
    to[i] = 48 + x - q * 10;
    x = q;
  }
};

export const ascii = (to: Uint8Array, at: number, text: string): number => {
  let n = at;
  for (let i = 0; i < text.length; i++) to[n++] = text.charCodeAt(i);
  return n;
};

export const binaryFields: BinaryFields = {
  uuid(from, s, to, at) {
    let k = at;
    for (let i = 0; i < 16; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) to.setUint8(k++, 0x2d);
      to.setUint16(k, HEX[from.getUint8(s + i)]!, true);
      k += 2;
    }
    return k;
  },

  int(from, s, n) {
    if (n === 4) return from.getInt32(s);
    if (n === 2) return from.getInt16(s);
    if (n !== 8) throw new Error(`COPY: an integer of ${n} bytes`);
    const hi = from.getInt32(s);
    if (hi < -SAFE_HIGH || hi >= SAFE_HIGH) return bigInt8(from, s).toString();
    return hi * TWO_32 + from.getUint32(s + 4);
  },

  dateSerial(from, s) {
    const hi = from.getInt32(s);
    const lo = from.getUint32(s + 4);
    if ((hi === 0x7fffffff && lo === 0xffffffff) || (hi === -0x80000000 && lo === 0)) {
      return NaN; // infinity, -infinity
    }
    let ms: number;
    // Within ±2^52 microseconds of 2000 (1857-2142) the epoch's are within 2^53 too.
    if (hi >= -SAFE_HIGH / 2 && hi < SAFE_HIGH / 2) {
      const us = hi * TWO_32 + lo + PG_EPOCH_US;
      ms = (us - (us % 1000)) / 1000;
    } else ms = Number((bigInt8(from, s) + BigInt(PG_EPOCH_US)) / 1000n);
    return ms / MS_PER_DAY + EXCEL_EPOCH_DAYS;
  },

  serialDigits(to, at, x) {
    if (!(x >= FAST_SERIAL_MIN && x < FAST_SERIAL_MAX)) return ascii(to, at, String(x));
    let days = Math.floor(x);
    let f = Math.round((x - days) * E12);
    if (f === E12) {
      days++;
      f = 0;
    }
    let n = digits(to, at, days);
    if (f === 0) return n;
    to[n] = 0x2e; // .
    const high = Math.floor(f / E6);
    six(to, n + 1, high);
    six(to, n + 7, f - high * E6);
    n += 13;
    while (to[n - 1] === 48) n--;
    return n;
  },

  digits,
  ascii,
};

/**
 * The scanners' side of the recipient keys (the contract's recipient-keys.ts: one exact double
 * per kept number, ordered by length, then value): collect them, sort and dedupe them, merge
 * them into the form's list.
 */
import { encodeRecipientKey, RECIPIENT_MAX_DIGITS, RECIPIENT_MIN_DIGITS } from '@herald/contract';

/**
 * Collects keys into a growing Float64Array and counts the dropped entries: `invalid` digit
 * strings (not 7–15 digits), each also kept as written so the form can list them, and
 * `ignored` ones that are not numbers (letters, such as a name or a header, or nothing left
 * after stripping; only all-digit cells count).
 */
export class KeySink {
  keys: Float64Array;
  length = 0;
  invalid = 0;
  ignored = 0;
  /** Every invalid entry as written; `invalidEntries.length === invalid`. */
  invalidEntries: string[] = [];
  /** Each invalid entry's digit count, 0 where the count is not what made it invalid. */
  invalidDigits: number[] = [];

  constructor(expected = 1024) {
    this.keys = new Float64Array(Math.max(16, expected));
  }

  /**
   * A finished entry/cell: `digits` digits (value exact up to 15 digits), `bad` = other chars.
   * Returns false for an invalid one, which the caller then records with its text
   * (invalidEntry), so that only invalid entries pay for a string.
   */
  token(digits: number, value: number, bad: boolean): boolean {
    if (bad || digits < RECIPIENT_MIN_DIGITS || digits > RECIPIENT_MAX_DIGITS) {
      if (bad || digits === 0) {
        this.ignored++;
        return true;
      }
      return false;
    }
    this.key(encodeRecipientKey(digits, value));
    return true;
  }

  /** An invalid entry as written, with its digit count (0: not the reason). */
  invalidEntry(text: string, digits: number): void {
    this.invalid++;
    this.invalidEntries.push(text);
    this.invalidDigits.push(digits);
  }

  /** An already encoded key. */
  key(k: number): void {
    if (this.length === this.keys.length) {
      const grown = new Float64Array(this.keys.length * 2);
      grown.set(this.keys);
      this.keys = grown;
    }
    this.keys[this.length++] = k;
  }

  /** A numeric spreadsheet value: kept when it is a whole number of 7–15 digits. */
  number(n: number): void {
    if (!Number.isInteger(n)) {
      if (Number.isNaN(n)) this.ignored++;
      else this.invalidEntry(String(n), 0);
      return;
    }
    const v = Math.abs(n);
    let digits = 1;
    for (let p = 10; p <= v && digits <= RECIPIENT_MAX_DIGITS; p *= 10) digits++;
    if (!this.token(digits, v, false)) this.invalidEntry(String(n), digitCount(v));
  }
}

/** The digits of a whole number as written out in full (1.5e20 has 21). */
function digitCount(v: number): number {
  return v < 1e21 ? String(v).length : Math.floor(Math.log10(v)) + 1;
}

export interface ScanResult {
  /** Sorted, unique keys; `keys.length === kept`. The buffer may be larger (transfer it). */
  keys: Float64Array;
  kept: number;
  invalid: number;
  /** The invalid entries as written, in the order read, and their digit counts (KeySink). */
  invalidEntries: string[];
  invalidDigits: number[];
  ignored: number;
  duplicates: number;
}

/** 16 bits of a key (an integer below 2^53): bits 16*pass .. 16*pass+15. */
function digit(k: number, pass: number): number {
  if (pass === 0) return k & 0xffff;
  if (pass === 1) return k >>> 16;
  const hi = Math.floor(k / 4294967296);
  return pass === 2 ? hi & 0xffff : hi >>> 16;
}

/**
 * Sorts keys ascending in place. Large arrays use an LSD radix sort on 16-bit digits (four
 * counting passes, a pass skipped when every key shares its digit), several times faster than
 * Float64Array.prototype.sort for 1M keys; small ones use the built-in sort.
 */
export function sortKeys(a: Float64Array): Float64Array {
  const n = a.length;
  if (n < 4096) return a.sort();
  let src: Float64Array = a;
  let dst: Float64Array = new Float64Array(n);
  const count = new Uint32Array(65536);
  for (let pass = 0; pass < 4; pass++) {
    count.fill(0);
    for (let i = 0; i < n; i++) {
      const d = digit(src[i] as number, pass);
      count[d] = (count[d] as number) + 1;
    }
    if (count[digit(src[0] as number, pass)] === n) continue;
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const c = count[d] as number;
      count[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const k = src[i] as number;
      const d = digit(k, pass);
      const at = count[d] as number;
      dst[at] = k;
      count[d] = at + 1;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  if (src !== a) a.set(src);
  return a;
}

/** Sorts and dedupes the sink's keys in place. */
export function finish(sink: KeySink): ScanResult {
  const all = sortKeys(sink.keys.subarray(0, sink.length));
  let u = 0;
  for (let i = 0; i < all.length; i++) {
    const k = all[i] as number;
    if (u === 0 || all[u - 1] !== k) all[u++] = k;
  }
  return {
    keys: all.subarray(0, u),
    kept: u,
    invalid: sink.invalid,
    invalidEntries: sink.invalidEntries,
    invalidDigits: sink.invalidDigits,
    ignored: sink.ignored,
    duplicates: sink.length - u,
  };
}

/**
 * Merges new sorted unique keys into existing sorted unique keys in O(n + m); a new key
 * already present counts as a duplicate (deduplicated against the recipients already there).
 */
export function mergeKeys(
  existing: Float64Array,
  added: Float64Array,
): { keys: Float64Array; duplicates: number } {
  const out = new Float64Array(existing.length + added.length);
  let i = 0;
  let j = 0;
  let n = 0;
  let duplicates = 0;
  while (i < existing.length && j < added.length) {
    const a = existing[i] as number;
    const b = added[j] as number;
    if (a < b) {
      out[n++] = a;
      i++;
    } else if (b < a) {
      out[n++] = b;
      j++;
    } else {
      out[n++] = a;
      i++;
      j++;
      duplicates++;
    }
  }
  while (i < existing.length) out[n++] = existing[i++] as number;
  while (j < added.length) out[n++] = added[j++] as number;
  return { keys: out.subarray(0, n), duplicates };
}

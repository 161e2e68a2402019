/**
 * A kept recipient number as one exact double, its key: (digit count - 7) * 1e15 + value.
 * The browser's parser keeps a million of them in a Float64Array (sorted, deduplicated,
 * transferred from its worker without a string each) and the server's parser makes the same
 * keys from the `to` text, then writes their digits straight into its COPY rows.
 *
 * A kept number has 7–15 digits, so its value is below 1e15; leading zeros matter
 * ('0987654321' is not '987654321'), hence the digit count in the key. The largest key,
 * 8e15 + 1e15 - 1, is below 2^53, so every key is an exact integer, and numeric order is by
 * length, then value: within one length that is the byte order of the digit strings (the
 * database's C collation).
 */
import { RECIPIENT_MAX_DIGITS, RECIPIENT_MIN_DIGITS } from './recipients.js';

const SPAN = 1e15;

/** The key of a number with `digits` digits (7–15) whose value is `value`. */
export function encodeRecipientKey(digits: number, value: number): number {
  return (digits - RECIPIENT_MIN_DIGITS) * SPAN + value;
}

/** The key of a normalised number (7–15 ASCII digits, as normalizeRecipient returns it). */
export function recipientKeyOf(normalised: string): number {
  return encodeRecipientKey(normalised.length, Number(normalised));
}

/**
 * Writes the ASCII digits of `key` at `out[at]`, leading zeros included; returns how many
 * (7–15). The value is split into 7 + 8 digits so the arithmetic stays in small integers:
 * a million numbers become bytes without a string each.
 */
export function writeRecipientKey(key: number, out: Uint8Array, at: number): number {
  const tag = Math.floor(key / SPAN);
  const digits = tag + RECIPIENT_MIN_DIGITS;
  const value = key - tag * SPAN;
  const high = Math.floor(value / 1e8);
  let hi = high | 0;
  let lo = (value - high * 1e8) | 0;
  const end = at + digits;
  // The last 8 digits from lo, right to left, then the rest from hi (zeros once it runs out).
  for (let p = end - 1; p >= end - 8 && p >= at; p--) {
    const q = (lo / 10) | 0;
    out[p] = 0x30 + lo - q * 10;
    lo = q;
  }
  for (let p = end - 9; p >= at; p--) {
    const q = (hi / 10) | 0;
    out[p] = 0x30 + hi - q * 10;
    hi = q;
  }
  return digits;
}

/** The digit string of one key, leading zeros restored (tests and small lists, not bulk). */
export function recipientKeyToString(key: number): string {
  const buf = new Uint8Array(RECIPIENT_MAX_DIGITS);
  return String.fromCharCode(...buf.subarray(0, writeRecipientKey(key, buf, 0)));
}

/** Every key's digit string, in the keys' order. */
export function recipientKeysToStrings(keys: ArrayLike<number>): string[] {
  return Array.from(keys, recipientKeyToString);
}

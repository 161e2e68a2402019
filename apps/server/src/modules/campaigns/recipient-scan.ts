import { createHash } from 'node:crypto';
import { setImmediate as turn } from 'node:timers/promises';
import { encodeRecipientKey, RECIPIENT_MAX_DIGITS, RECIPIENT_MIN_DIGITS } from '@herald/contract';

/**
 * The server's recipient parser: the contract's recipient rules (recipients.ts) in one pass
 * over the characters, fed in chunks as the upload arrives, without splitting the text into
 * token strings or keeping a Set (docs/performance.md, campaign intake). Its tests run the
 * contract's table of cases (recipient-cases.ts), as the browser's parser's do.
 *
 * Each kept number becomes one exact double, its key (the contract's recipient-keys.ts, the
 * browser's parser's encoding too). Keys order by length, then value: the list the web form
 * sends (sorted by its parser) needs no sort here, and within one length the order is the byte
 * order of the database's C collation, the (campaign_id, phone) index's.
 */

const PAD = RECIPIENT_MAX_DIGITS;
const POW10 = Array.from({ length: PAD + 1 }, (_, i) => 10 ** i);

/**
 * Character classes: OTHER makes a piece not a number; STRIP is dropped; SPACE ends a piece
 * (pieces of one line may join into one number); SEP ends a piece and the line's entry.
 */
const OTHER = 0;
const SEP = 1;
const STRIP = 2;
const DIGIT = 3;
const SPACE = 4;
const PLUS = 0x2b;
const CLASS = new Uint8Array(0x10000);
// JavaScript's \s splits into spaces (inside a written number) and line-like separators.
for (const c of [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x2028, 0x2029, 0xfeff, 0x2c, 0x3b]) {
  CLASS[c] = SEP;
}
for (const c of [0x20, 0xa0, 0x1680, 0x202f, 0x205f, 0x3000]) CLASS[c] = SPACE;
for (let c = 0x2000; c <= 0x200a; c++) CLASS[c] = SPACE;
for (const ch of '+-().') CLASS[ch.charCodeAt(0)] = STRIP;
for (let c = 0x30; c <= 0x39; c++) CLASS[c] = DIGIT;

/** The parse of one recipient list: kept numbers as sorted unique keys, with the form's counts. */
export interface RecipientList {
  /** Sorted, no duplicates; `keys.length === kept`. */
  keys: Float64Array;
  kept: number;
  /** Entries of digits outside 7–15 digits. */
  invalid: number;
  /** Entries that are not numbers (letters, or nothing left after stripping). */
  ignored: number;
  duplicates: number;
}

/**
 * The joining of a line's pieces into entries (recipients.ts, RECIPIENT_JOINING): the piece
 * being read, and the entry its short predecessors gathered so far.
 */
export class RecipientScanner {
  #keys: Float64Array;
  #length = 0;
  #invalid = 0;
  #ignored = 0;
  #sorted = true;
  #last = -1;
  // The piece being read: whether it has any character, its digits so far (value exact up to
  // 15 of them), whether a character other than a digit or a stripped one was seen, and
  // whether it starts with '+'.
  #open = false;
  #digits = 0;
  #value = 0;
  #bad = false;
  #plus = false;
  // The entry gathered from short pieces of this line: whether any, its digits and value.
  #entry = false;
  #entryDigits = 0;
  #entryValue = 0;

  constructor(expectedKeys = 1024) {
    this.#keys = new Float64Array(Math.max(16, expectedKeys));
  }

  /** Scans the next piece of the text; a token may continue into the next call. */
  push(text: string): void {
    let open = this.#open;
    let digits = this.#digits;
    let value = this.#value;
    let bad = this.#bad;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      const cls = CLASS[c];
      if (cls === DIGIT) {
        if (!open) {
          open = true;
          this.#plus = false;
        }
        if (++digits <= PAD) value = value * 10 + (c - 0x30);
      } else if (cls === SEP || cls === SPACE) {
        if (open) {
          this.#piece(digits, value, bad);
          open = false;
          digits = 0;
          value = 0;
          bad = false;
        }
        if (cls === SEP && this.#entry) this.#endEntry();
      } else {
        if (!open) {
          open = true;
          this.#plus = c === PLUS;
        }
        if (cls === OTHER) bad = true;
      }
    }
    this.#open = open;
    this.#digits = digits;
    this.#value = value;
    this.#bad = bad;
  }

  /** Ends the text: sorts (unless it came sorted) and drops duplicates in place. */
  finish(): RecipientList {
    if (this.#open) this.#piece(this.#digits, this.#value, this.#bad);
    this.#open = false;
    if (this.#entry) this.#endEntry();
    const all = this.#keys.subarray(0, this.#length);
    if (!this.#sorted) all.sort();
    let kept = 0;
    for (let i = 0; i < all.length; i++) {
      const k = all[i] as number;
      if (kept === 0 || k !== all[kept - 1]) all[kept++] = k;
    }
    return {
      keys: all.subarray(0, kept),
      kept,
      invalid: this.#invalid,
      ignored: this.#ignored,
      duplicates: all.length - kept,
    };
  }

  /** A piece ended (at a space or a separator): it joins the line's entry or stands alone. */
  #piece(digits: number, value: number, bad: boolean): void {
    if (bad) {
      if (this.#entry) this.#endEntry();
      this.#ignored++;
      return;
    }
    // A '+' starts a number: it never continues the digits gathered before it.
    if (this.#plus && this.#entryDigits > 0) this.#endEntry();
    if (digits < RECIPIENT_MIN_DIGITS) {
      // Too short to be a number: gathered, to be read with the pieces after it.
      const total = this.#entryDigits + digits;
      if (total <= PAD) this.#entryValue = this.#entryValue * (POW10[digits] as number) + value;
      this.#entryDigits = total;
      this.#entry = true;
      return;
    }
    if (this.#entry && this.#entryDigits + digits <= PAD) {
      // A long piece completes the short ones before it.
      const total = this.#entryDigits + digits;
      this.#token(total, this.#entryValue * (POW10[digits] as number) + value);
      this.#resetEntry();
      return;
    }
    if (this.#entry) this.#endEntry();
    this.#token(digits, value);
  }

  #endEntry(): void {
    if (this.#entryDigits === 0) this.#ignored++;
    else this.#token(this.#entryDigits, this.#entryValue);
    this.#resetEntry();
  }

  #resetEntry(): void {
    this.#entry = false;
    this.#entryDigits = 0;
    this.#entryValue = 0;
  }

  /** An entry of digits only: kept when 7–15 of them, else invalid. */
  #token(digits: number, value: number): void {
    if (digits < RECIPIENT_MIN_DIGITS || digits > PAD) {
      this.#invalid++;
      return;
    }
    const key = encodeRecipientKey(digits, value);
    if (key < this.#last) this.#sorted = false;
    this.#last = key;
    if (this.#length === this.#keys.length) {
      const grown = new Float64Array(this.#keys.length * 2);
      grown.set(this.#keys);
      this.#keys = grown;
    }
    this.#keys[this.#length++] = key;
  }
}

/** The whole text at once (tests, small lists). */
export function scanRecipients(text: string): RecipientList {
  const scanner = new RecipientScanner(text.length >> 3);
  scanner.push(text);
  return scanner.finish();
}

/** Bytes hashed between turns of the event loop (about a millisecond each). */
const DIGEST_SLICE = 1 << 20;

/**
 * A digest of the kept set, standing in for the raw `to` text in an idempotency request hash:
 * the same numbers hash the same whatever their order, separators or duplicates. Hashed a
 * slice at a time, so 8 MB of keys never hold the event loop for long.
 */
export async function recipientsDigest(list: RecipientList): Promise<string> {
  const { keys } = list;
  const bytes = new Uint8Array(keys.buffer, keys.byteOffset, keys.byteLength);
  const hash = createHash('sha256');
  for (let at = 0; at < bytes.length; at += DIGEST_SLICE) {
    if (at > 0) await turn();
    hash.update(bytes.subarray(at, at + DIGEST_SLICE));
  }
  return `sha256:${hash.digest('hex')}`;
}

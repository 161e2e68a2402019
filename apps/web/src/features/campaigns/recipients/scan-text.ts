/**
 * Byte scanner for pasted text and CSV files (UTF-8). No string and no Set per token: each
 * token's digits accumulate into a number, kept tokens go into a Float64Array (keys.ts), and
 * the array is sorted and deduped in place at the end. Pasted text follows the contract's
 * recipient rules (recipients.ts) exactly as the server's parser does: both run the contract's
 * table of cases (recipient-cases.ts) in their tests.
 */
import { finish, KeySink, type ScanResult } from './keys';

/** Byte classes. */
export const OTHER = 0;
export const DIGIT = 1;
/** '+', '-', '(', ')', '.': removed inside a token. */
export const STRIP = 2;
/** ASCII whitespace (JS \s): a separator in text, ignored inside a CSV cell. */
export const SPACE = 3;
/** ',' and ';' */
export const COMMA = 4;
export const QUOTE = 5;
/** A byte >= 0x80: maybe the start of a Unicode space (JS \s), else part of a letter. */
export const HIGH = 6;
export const NEWLINE = 7;

export const BYTE_CLASS = new Uint8Array(256);
for (let b = 0x30; b <= 0x39; b++) BYTE_CLASS[b] = DIGIT;
for (const c of '+-().') BYTE_CLASS[c.charCodeAt(0)] = STRIP;
for (const b of [0x09, 0x0b, 0x0c, 0x20]) BYTE_CLASS[b] = SPACE;
BYTE_CLASS[0x0a] = NEWLINE;
BYTE_CLASS[0x0d] = NEWLINE;
BYTE_CLASS[0x2c] = COMMA;
BYTE_CLASS[0x3b] = COMMA;
BYTE_CLASS[0x22] = QUOTE;
for (let b = 0x80; b <= 0xff; b++) BYTE_CLASS[b] = HIGH;

/**
 * The length in bytes of the Unicode space character JS's \s matches at `i` (U+00A0, U+1680,
 * U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF), or 0.
 */
export function unicodeSpaceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i];
  const b1 = bytes[i + 1];
  if (b0 === 0xc2) return b1 === 0xa0 ? 2 : 0;
  const b2 = bytes[i + 2];
  if (b0 === 0xe2) {
    if (b1 === 0x80 && b2 !== undefined) {
      return (b2 >= 0x80 && b2 <= 0x8a) || b2 === 0xa8 || b2 === 0xa9 || b2 === 0xaf ? 3 : 0;
    }
    return b1 === 0x81 && b2 === 0x9f ? 3 : 0;
  }
  if (b0 === 0xe1) return b1 === 0x9a && b2 === 0x80 ? 3 : 0;
  if (b0 === 0xe3) return b1 === 0x80 && b2 === 0x80 ? 3 : 0;
  if (b0 === 0xef) return b1 === 0xbb && b2 === 0xbf ? 3 : 0;
  return 0;
}

/**
 * Pasted text: tokens split on whitespace (ASCII and Unicode, as JS \s), commas and
 * semicolons; within a token '+', '-', '(', ')' and '.' are removed; a token is kept when
 * 7–15 digits and nothing else remain; a token with letters (or with no digit) is not a
 * number (ignored), other digit strings are invalid.
 */
export function scanText(bytes: Uint8Array, sink = new KeySink(bytes.length >>> 3)): KeySink {
  let inToken = false;
  let digits = 0;
  let value = 0;
  let bad = false;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const b = bytes[i] as number;
    let cls = BYTE_CLASS[b] as number;
    if (cls === HIGH) {
      const len = unicodeSpaceLength(bytes, i);
      if (len > 0) {
        i += len - 1;
        cls = SPACE;
      }
    }
    if (cls === DIGIT) {
      value = value * 10 + (b - 0x30);
      digits++;
      inToken = true;
    } else if (cls === SPACE || cls === COMMA || cls === NEWLINE) {
      if (inToken) {
        sink.token(digits, value, bad);
        inToken = false;
        digits = 0;
        value = 0;
        bad = false;
      }
    } else {
      inToken = true;
      if (cls !== STRIP) bad = true;
    }
  }
  if (inToken) sink.token(digits, value, bad);
  return sink;
}

/**
 * CSV: a cell is one token. Cells end at commas, semicolons and line breaks (CR, LF, so CRLF
 * and blank lines are fine). Double quotes are removed rather than parsed, so a quoted cell
 * holding a comma splits into two cells; phone numbers hold no commas, and this keeps the
 * scan a single pass. Spaces inside a cell are removed, not separators, so a cell such as
 * "+91 98765 43210" becomes 919876543210 (a file contributes all-digit cells), and a
 * cell with letters is not a number (ignored). A cell that is empty after removing spaces and quotes is
 * skipped (a leading BOM is a Unicode space, so it is removed too).
 */
export function scanCsv(bytes: Uint8Array, sink = new KeySink(bytes.length >>> 3)): KeySink {
  let inCell = false;
  let digits = 0;
  let value = 0;
  let bad = false;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const b = bytes[i] as number;
    let cls = BYTE_CLASS[b] as number;
    if (cls === HIGH) {
      const len = unicodeSpaceLength(bytes, i);
      if (len > 0) {
        i += len - 1;
        cls = SPACE;
      }
    }
    if (cls === DIGIT) {
      value = value * 10 + (b - 0x30);
      digits++;
      inCell = true;
    } else if (cls === COMMA || cls === NEWLINE) {
      if (inCell) {
        sink.token(digits, value, bad);
        inCell = false;
        digits = 0;
        value = 0;
        bad = false;
      }
    } else if (cls !== SPACE && cls !== QUOTE) {
      inCell = true;
      if (cls !== STRIP) bad = true;
    }
  }
  if (inCell) sink.token(digits, value, bad);
  return sink;
}

export function parseTextBytes(bytes: Uint8Array): ScanResult {
  return finish(scanText(bytes));
}

export function parseCsvBytes(bytes: Uint8Array): ScanResult {
  return finish(scanCsv(bytes));
}

/**
 * Byte scanner for pasted text and CSV files (UTF-8). No string and no Set per token: each
 * token's digits accumulate into a number, kept tokens go into a Float64Array (keys.ts), and
 * the array is sorted and deduped in place at the end. Pasted text follows the contract's
 * recipient rules (recipients.ts) exactly as the server's parser does: both run the contract's
 * table of cases (recipient-cases.ts) in their tests.
 */
import { RECIPIENT_MAX_DIGITS, RECIPIENT_MIN_DIGITS } from '@herald/contract';
import { finish, KeySink, type ScanResult } from './keys';

/** Byte classes. */
export const OTHER = 0;
export const DIGIT = 1;
/** '+', '-', '(', ')', '.': removed inside a token. */
export const STRIP = 2;
/**
 * ASCII whitespace (JS \s): in text ' ' splits a line into pieces and the others end the line;
 * ignored inside a CSV cell.
 */
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

/** Whether the Unicode \s character at `i` ends a line (U+2028, U+2029, BOM) or splits it. */
function isLineBreak(bytes: Uint8Array, i: number): boolean {
  const b0 = bytes[i];
  if (b0 === 0xef) return true;
  const b2 = bytes[i + 2];
  return b0 === 0xe2 && bytes[i + 1] === 0x80 && (b2 === 0xa8 || b2 === 0xa9);
}

const POW10 = Array.from({ length: RECIPIENT_MAX_DIGITS + 1 }, (_, i) => 10 ** i);
const decoder = new TextDecoder();

/**
 * The entries of one text: pieces (between spaces) gathered into entries by the contract's
 * joining rule (recipients.ts, RECIPIENT_JOINING), each entry's byte range kept so that an
 * invalid one is listed as written.
 */
class TextEntries {
  open = false;
  digits = 0;
  value = 0;
  start = 0;
  end = 0;

  constructor(
    readonly bytes: Uint8Array,
    readonly sink: KeySink,
  ) {}

  /** A piece `bytes[start, end)` ended at a space or a separator. */
  piece(digits: number, value: number, bad: boolean, plus: boolean, start: number, end: number) {
    if (bad) {
      if (this.open) this.endEntry();
      this.sink.ignored++;
      return;
    }
    // A '+' starts a number: it never continues the digits gathered before it.
    if (plus && this.digits > 0) this.endEntry();
    if (digits < RECIPIENT_MIN_DIGITS) {
      // Too short to be a number: gathered, to be read with the pieces after it.
      if (!this.open) {
        this.open = true;
        this.start = start;
      }
      const total = this.digits + digits;
      if (total <= RECIPIENT_MAX_DIGITS)
        this.value = this.value * (POW10[digits] as number) + value;
      this.digits = total;
      this.end = end;
      return;
    }
    if (this.open && this.digits + digits <= RECIPIENT_MAX_DIGITS) {
      // A long piece completes the short ones before it.
      const total = this.digits + digits;
      this.emit(total, this.value * (POW10[digits] as number) + value, this.start, end);
      this.reset();
      return;
    }
    if (this.open) this.endEntry();
    this.emit(digits, value, start, end);
  }

  /** The line ended: what was gathered is an entry. */
  endEntry(): void {
    if (this.digits === 0) this.sink.ignored++;
    else this.emit(this.digits, this.value, this.start, this.end);
    this.reset();
  }

  reset(): void {
    this.open = false;
    this.digits = 0;
    this.value = 0;
  }

  emit(digits: number, value: number, start: number, end: number): void {
    if (!this.sink.token(digits, value, false)) {
      this.sink.invalidEntry(decoder.decode(this.bytes.subarray(start, end)), digits);
    }
  }
}

/**
 * Pasted text: lines end at line breaks, tabs, commas and semicolons (and the other JS \s
 * characters that are not spaces); spaces (ASCII and Unicode) split a line into pieces, which
 * join into entries by the contract's rule. Within a piece '+', '-', '(', ')' and '.' are
 * removed; a piece with letters is not a number (ignored); an entry is kept when it holds
 * 7–15 digits, else it is invalid and listed as written.
 */
export function scanText(bytes: Uint8Array, sink = new KeySink(bytes.length >>> 3)): KeySink {
  const entries = new TextEntries(bytes, sink);
  let inPiece = false;
  let digits = 0;
  let value = 0;
  let bad = false;
  let plus = false;
  let start = 0;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const b = bytes[i] as number;
    let cls = BYTE_CLASS[b] as number;
    const at = i;
    if (cls === HIGH) {
      const len = unicodeSpaceLength(bytes, i);
      if (len > 0) {
        cls = isLineBreak(bytes, i) ? NEWLINE : SPACE;
        i += len - 1;
      }
    } else if (cls === SPACE && b !== 0x20) cls = NEWLINE; // tab, vertical tab, form feed
    if (cls === DIGIT) {
      if (!inPiece) {
        inPiece = true;
        plus = false;
        start = at;
      }
      value = value * 10 + (b - 0x30);
      digits++;
    } else if (cls === SPACE || cls === COMMA || cls === NEWLINE) {
      if (inPiece) {
        entries.piece(digits, value, bad, plus, start, at);
        inPiece = false;
        digits = 0;
        value = 0;
        bad = false;
      }
      if (cls !== SPACE && entries.open) entries.endEntry();
    } else {
      if (!inPiece) {
        inPiece = true;
        plus = b === 0x2b;
        start = at;
      }
      if (cls !== STRIP) bad = true;
    }
  }
  if (inPiece) entries.piece(digits, value, bad, plus, start, n);
  if (entries.open) entries.endEntry();
  return sink;
}

/** An invalid CSV cell as written, without its quotes and surrounding spaces. */
function invalidCell(bytes: Uint8Array, start: number, end: number, digits: number, sink: KeySink) {
  sink.invalidEntry(decoder.decode(bytes.subarray(start, end)).replace(/"/g, '').trim(), digits);
}

/**
 * CSV: a cell is one token. Cells end at commas, semicolons and line breaks (CR, LF, so CRLF
 * and blank lines are fine). Double quotes are removed rather than parsed, so a quoted cell
 * holding a comma splits into two cells; phone numbers hold no commas, and this keeps the
 * scan a single pass. Spaces inside a cell are removed, not separators, so a cell such as
 * "+91 98765 43210" becomes 919876543210 (a file contributes all-digit cells), and a cell
 * with letters is not a number (ignored); an invalid cell is kept as written for the form's
 * list. A cell that is empty after removing spaces and quotes is skipped (a leading BOM is a
 * Unicode space, so it is removed too).
 */
export function scanCsv(bytes: Uint8Array, sink = new KeySink(bytes.length >>> 3)): KeySink {
  let inCell = false;
  let digits = 0;
  let value = 0;
  let bad = false;
  let start = 0;
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
      if (!inCell) start = i;
      inCell = true;
    } else if (cls === COMMA || cls === NEWLINE) {
      if (inCell) {
        if (!sink.token(digits, value, bad)) invalidCell(bytes, start, i, digits, sink);
        inCell = false;
        digits = 0;
        value = 0;
        bad = false;
      }
    } else if (cls !== SPACE && cls !== QUOTE) {
      if (!inCell) start = i;
      inCell = true;
      if (cls !== STRIP) bad = true;
    }
  }
  if (inCell && !sink.token(digits, value, bad)) invalidCell(bytes, start, n, digits, sink);
  return sink;
}

export function parseTextBytes(bytes: Uint8Array): ScanResult {
  return finish(scanText(bytes));
}

export function parseCsvBytes(bytes: Uint8Array): ScanResult {
  return finish(scanCsv(bytes));
}

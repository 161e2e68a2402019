/**
 * .xlsx without a spreadsheet library: the zip's central directory gives the entries,
 * xl/sharedStrings.xml and every xl/worksheets/sheet*.xml are inflated natively, and a byte
 * scanner reads the text of `<v>` and `<t>` (inside `<si>` or an inline `<is>`) of each `<c>`.
 * No cell object and no string per cell: a cell's text feeds one reused accumulator with the
 * CSV cell rule of scan-text.ts (spaces and quotes removed, + - ( ) . stripped, letters make
 * it not a number). Un-prefixed SpreadsheetML only (what Excel, LibreOffice and SheetJS write).
 */
import { finish, KeySink, type ScanResult } from './keys';
import {
  BYTE_CLASS,
  DIGIT,
  HIGH,
  NEWLINE,
  QUOTE,
  SPACE,
  STRIP,
  unicodeSpaceLength,
} from './scan-text';
import { inflateEntry, readCentralDirectory, UnreadableFileError } from './zip';
import { encodeRecipientKey, RECIPIENT_MAX_DIGITS, RECIPIENT_MIN_DIGITS } from '@herald/contract';

/** Shared-string markers (keys are >= 0). */
const INVALID = -1;
const EMPTY = -2;
const NOT_A_NUMBER = -3;

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;

/** One cell's text so far; reused for every cell. */
class CellText {
  digits = 0;
  value = 0;
  bad = false;
  /** Saw + - ( ) . (a numeric cell with '.' or 'E' takes the slow path). */
  stripped = false;
  some = false;

  reset(): void {
    this.digits = 0;
    this.value = 0;
    this.bad = false;
    this.stripped = false;
    this.some = false;
  }

  feed(x: Uint8Array, from: number, to: number): void {
    for (let i = from; i < to; i++) {
      const b = x[i] as number;
      const cls = BYTE_CLASS[b] as number;
      if (cls === DIGIT) {
        this.value = this.value * 10 + (b - 0x30);
        this.digits++;
        this.some = true;
      } else if (cls === SPACE || cls === NEWLINE || cls === QUOTE) {
        continue;
      } else if (cls === HIGH && unicodeSpaceLength(x, i) > 0) {
        i += unicodeSpaceLength(x, i) - 1;
      } else {
        this.some = true;
        if (cls === STRIP) this.stripped = true;
        else this.bad = true;
      }
    }
  }

  /** The cell's key, INVALID (digits, not 7–15), EMPTY or NOT_A_NUMBER (letters, or no digit). */
  key(): number {
    if (!this.some) return EMPTY;
    if (this.bad || this.digits < RECIPIENT_MIN_DIGITS || this.digits > RECIPIENT_MAX_DIGITS) {
      return this.bad || this.digits === 0 ? NOT_A_NUMBER : INVALID;
    }
    return encodeRecipientKey(this.digits, this.value);
  }
}

/** Like Uint8Array#indexOf; a plain loop, which V8 inlines, is faster for these short hops. */
function find(x: Uint8Array, b: number, from: number): number {
  const n = x.length;
  while (from < n && x[from] !== b) from++;
  return from < n ? from : -1;
}

const isDelim = (b: number | undefined) =>
  b === GT || b === SLASH || b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

/** Feeds the text of every `<v>`/`<t>` element between `from` and the closing `</end>`; returns the index of that '<'. */
function feedElement(
  x: Uint8Array,
  from: number,
  endName: number,
  endLen: number,
  acc: CellText,
  range: number[],
): number {
  let k = from;
  for (;;) {
    k = find(x, LT, k);
    if (k < 0) return x.length;
    const next = x[k + 1];
    if (next === SLASH) {
      if (
        x[k + 2] === endName &&
        (endLen === 1 ? x[k + 3] === GT : x[k + 3] === 0x69 && x[k + 4] === GT)
      ) {
        return k;
      }
      k += 2;
      continue;
    }
    if ((next === 0x76 || next === 0x74) && (x[k + 2] === GT || x[k + 2] === 0x20)) {
      const gt = find(x, GT, k);
      if (gt < 0) return x.length;
      if (x[gt - 1] === SLASH) {
        k = gt + 1;
        continue;
      }
      let lt = find(x, LT, gt + 1);
      if (lt < 0) lt = x.length;
      acc.feed(x, gt + 1, lt);
      range[0] = gt + 1;
      range[1] = lt;
      k = lt;
      continue;
    }
    k++;
  }
}

const decoder = new TextDecoder();

/** An invalid cell's text as written: the XML between two offsets without its tags. */
function cellText(x: Uint8Array, from: number, to: number): string {
  return decoder
    .decode(x.subarray(from, to))
    .replace(/<[^>]*>/g, '')
    .trim();
}

/** An invalid shared string as written, with its digit count. */
export interface InvalidString {
  text: string;
  digits: number;
}

/**
 * Shared strings as keys (or INVALID, EMPTY, NOT_A_NUMBER), in index order; the text of each
 * INVALID one goes into `invalid` by its index, for the form's list.
 */
export function scanSharedStrings(
  x: Uint8Array,
  invalid: Map<number, InvalidString> = new Map(),
): Float64Array {
  let out = new Float64Array(1024);
  let n = 0;
  const acc = new CellText();
  const range = [0, 0];
  let i = 0;
  for (;;) {
    i = find(x, LT, i);
    if (i < 0) break;
    // <si> or <si ...>
    if (x[i + 1] !== 0x73 || x[i + 2] !== 0x69 || !isDelim(x[i + 3])) {
      i++;
      continue;
    }
    const gt = find(x, GT, i);
    if (gt < 0) break;
    acc.reset();
    i = x[gt - 1] === SLASH ? gt + 1 : feedElement(x, gt + 1, 0x73, 2, acc, range);
    const key = acc.key();
    if (key === INVALID) invalid.set(n, { text: cellText(x, gt + 1, i), digits: acc.digits });
    if (n === out.length) {
      const grown = new Float64Array(n * 2);
      grown.set(out);
      out = grown;
    }
    out[n++] = key;
  }
  return out.subarray(0, n);
}

const NUMERIC = 0;
const SHARED = 1;
const TEXT = 2;
const OTHER_TYPE = 3;

/** The value of the `t` attribute in the open tag `x[from..gt)`. */
function cellType(x: Uint8Array, from: number, gt: number): number {
  for (let j = from; j < gt - 3; j++) {
    if (x[j] === 0x74 && x[j + 1] === 0x3d && x[j + 2] === 0x22 && isDelim(x[j - 1])) {
      const a = x[j + 3];
      const b = x[j + 4];
      if (a === 0x6e) return NUMERIC; // n
      if (a === 0x73 && b === 0x22) return SHARED; // s
      if (a === 0x73 || a === 0x69) return TEXT; // str, inlineStr
      return OTHER_TYPE; // b, e, d
    }
  }
  return NUMERIC;
}

export function scanSheet(
  x: Uint8Array,
  sst: Float64Array,
  sink: KeySink,
  invalidStrings: Map<number, InvalidString> = new Map(),
): void {
  const acc = new CellText();
  const range = [0, 0];
  let i = 0;
  for (;;) {
    i = find(x, LT, i);
    if (i < 0) return;
    if (x[i + 1] !== 0x63 || !isDelim(x[i + 2])) {
      i++;
      continue;
    }
    const gt = find(x, GT, i);
    if (gt < 0) return;
    if (x[gt - 1] === SLASH) {
      i = gt + 1;
      continue;
    }
    const type = cellType(x, i + 2, gt);
    acc.reset();
    i = feedElement(x, gt + 1, 0x63, 1, acc, range);
    if (!acc.some) continue;
    if (type === NUMERIC) {
      if (acc.bad || acc.stripped) {
        sink.number(Number(decoder.decode(x.subarray(range[0], range[1])))); // 9.8E+9, rare
      } else if (!sink.token(acc.digits, acc.value, false)) {
        sink.invalidEntry(cellText(x, range[0] as number, range[1] as number), acc.digits);
      }
    } else if (type === SHARED) {
      const k = acc.bad || acc.stripped ? undefined : sst[acc.value];
      if (k !== undefined && k >= 0) sink.key(k);
      else if (k === INVALID) {
        const s = invalidStrings.get(acc.value);
        sink.invalidEntry(s?.text ?? '', s?.digits ?? 0);
      } else if (k !== EMPTY) sink.ignored++; // a name or a header (or a broken index)
    } else if (type === TEXT) {
      if (!sink.token(acc.digits, acc.value, acc.bad || acc.digits === 0)) {
        sink.invalidEntry(cellText(x, range[0] as number, range[1] as number), acc.digits);
      }
    } else sink.ignored++; // a boolean, an error or a date: not a number
  }
}

const SHARED_STRINGS = /^xl\/sharedstrings\.xml$/i;
const SHEET = /^xl\/worksheets\/sheet\d*\.xml$/i;

export async function parseXlsxBytes(bytes: Uint8Array): Promise<ScanResult> {
  const entries = readCentralDirectory(bytes);
  const sheets = entries.filter((e) => SHEET.test(e.name));
  if (sheets.length === 0) throw new UnreadableFileError('no worksheets');
  const sstEntry = entries.find((e) => SHARED_STRINGS.test(e.name));
  const invalidStrings = new Map<number, InvalidString>();
  const sst = sstEntry
    ? scanSharedStrings(await inflateEntry(bytes, sstEntry), invalidStrings)
    : new Float64Array(0);
  const sink = new KeySink(sheets.reduce((s, e) => s + e.size, 0) >>> 6);
  // One sheet inflated at a time, so the extra memory stays near one sheet's XML.
  for (const sheet of sheets)
    scanSheet(await inflateEntry(bytes, sheet), sst, sink, invalidStrings);
  return finish(sink);
}

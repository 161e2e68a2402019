/**
 * A file's type from its first bytes (magic bytes), never its name or declared type
 * (docs/product.md, Decisions: uploads are checked by content). The browser checks a chosen file
 * with it before uploading and the server checks the stored upload again, so both read the same
 * table.
 */
import type { CampaignFileKind } from './schemas/campaigns.js';

export type FileFamily = 'image' | 'video' | 'pdf' | 'audio' | 'spreadsheet' | 'text';

const TYPES = {
  png: { mime: 'image/png', family: 'image' },
  jpg: { mime: 'image/jpeg', family: 'image' },
  gif: { mime: 'image/gif', family: 'image' },
  webp: { mime: 'image/webp', family: 'image' },
  mp4: { mime: 'video/mp4', family: 'video' },
  pdf: { mime: 'application/pdf', family: 'pdf' },
  mp3: { mime: 'audio/mpeg', family: 'audio' },
  m4a: { mime: 'audio/mp4', family: 'audio' },
  ogg: { mime: 'audio/ogg', family: 'audio' },
  wav: { mime: 'audio/wav', family: 'audio' },
  xlsx: {
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    family: 'spreadsheet',
  },
  // Text has no signature: isPlainText decides, and the name picks csv or txt (ticket files).
  csv: { mime: 'text/csv', family: 'text' },
  txt: { mime: 'text/plain', family: 'text' },
} as const satisfies Record<string, { mime: string; family: FileFamily }>;

export type FileExt = keyof typeof TYPES;

export interface FileType {
  /** The extension a stored copy is given. */
  ext: FileExt;
  mime: string;
  family: FileFamily;
}

/** How many leading bytes detectFileType looks at: enough for an ftyp box's compatible brands. */
export const FILE_TYPE_HEAD_BYTES = 256;

/**
 * ISO/MP4 brands a video player reads as mp4. HEIF/HEIC, AVIF and 3GP share the ftyp box and
 * often list `isom` among their compatible brands, so their own major brands refuse the file
 * before the compatible brands are looked at.
 */
const MP4_BRANDS = new Set([
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'iso7',
  'iso8',
  'iso9',
  'mp41',
  'mp42',
  'mp71',
  'avc1',
  'M4V ',
  'M4VH',
  'M4VP',
  'dash',
  'f4v ',
  'mmp4',
  'MSNV',
]);
const AUDIO_MP4_BRANDS = new Set(['M4A ', 'M4B ']);
/** Major brands of the formats that borrow the mp4 box layout but are not mp4 video. */
const NOT_MP4_MAJOR =
  /^(qt {2}|3g[p2][0-9a-z ]|3ge|3gg|3gr|3gs|hei[cx]|hev[cx]|mif1|msf1|avi[fs]|crx )/;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const typeOf = (ext: FileExt): FileType => ({ ext, ...TYPES[ext] });

/** The type of a file from its first bytes (at least FILE_TYPE_HEAD_BYTES); null when none of ours. */
export function detectFileType(head: Uint8Array): FileType | null {
  const b = (i: number) => head[i] ?? -1;
  const ascii = (from: number, to: number) => {
    let s = '';
    for (let i = from; i < to && i < head.length; i++) s += String.fromCharCode(head[i] as number);
    return s;
  };
  if (PNG_SIGNATURE.every((v, i) => b(i) === v)) return typeOf('png');
  if (b(0) === 0xff && b(1) === 0xd8 && b(2) === 0xff) return typeOf('jpg');
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return typeOf('gif');
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return typeOf('webp');
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return typeOf('wav');
  if (ascii(4, 8) === 'ftyp') return ftypType(head, ascii);
  if (ascii(0, 5) === '%PDF-') return typeOf('pdf');
  if (ascii(0, 4) === 'PK\x03\x04' && isXlsxHead(head)) return typeOf('xlsx');
  if (ascii(0, 4) === 'OggS') return typeOf('ogg');
  if (ascii(0, 3) === 'ID3' || isMpegAudioFrame(b(0), b(1), b(2), b(3))) return typeOf('mp3');
  return null;
}

/**
 * mp4 (video) or m4a by the ftyp box: the major brand first, then its compatible brands (a
 * 32-bit list after the minor version, up to the box's size). QuickTime, HEIF, AVIF and 3GP
 * major brands are refused even when they also list `isom` (video is mp4).
 */
function ftypType(head: Uint8Array, ascii: (from: number, to: number) => string): FileType | null {
  const major = ascii(8, 12);
  if (AUDIO_MP4_BRANDS.has(major)) return typeOf('m4a');
  if (MP4_BRANDS.has(major)) return typeOf('mp4');
  if (major.length < 4 || NOT_MP4_MAJOR.test(major)) return null;
  const boxSize =
    (((head[0] ?? 0) << 24) | ((head[1] ?? 0) << 16) | ((head[2] ?? 0) << 8) | (head[3] ?? 0)) >>>
    0;
  const end = Math.min(boxSize, head.length);
  for (let at = 16; at + 4 <= end; at += 4) {
    if (MP4_BRANDS.has(ascii(at, at + 4))) return typeOf('mp4');
  }
  return null;
}

/**
 * A real MPEG audio frame header, not just the 11 sync bits: the version, layer, bitrate and
 * sampling-rate fields must not hold their reserved or "free/bad" values, so random bytes that
 * happen to start with 0xFFE0 are not taken for audio.
 */
function isMpegAudioFrame(b0: number, b1: number, b2: number, b3: number): boolean {
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0 || b3 < 0) return false;
  const version = (b1 >> 3) & 0b11; // 01 is reserved
  const layer = (b1 >> 1) & 0b11; // 00 is reserved
  const bitrate = (b2 >> 4) & 0b1111; // 0000 is "free", 1111 is "bad"
  const sampling = (b2 >> 2) & 0b11; // 11 is reserved
  const emphasis = b3 & 0b11; // 10 is reserved
  return (
    version !== 0b01 &&
    layer !== 0 &&
    bitrate !== 0 &&
    bitrate !== 0b1111 &&
    sampling !== 0b11 &&
    emphasis !== 0b10
  );
}

/**
 * An xlsx is a zip whose entries include the workbook part under `xl/`; a zip without one (a
 * docx, a jar, a bare archive) is not taken for a spreadsheet. Entry names sit in the local
 * file headers, which come first, so the head of the file shows them.
 */
function isXlsxHead(head: Uint8Array): boolean {
  let s = '';
  for (let i = 0; i < head.length; i++) s += String.fromCharCode(head[i] as number);
  return s.includes('xl/workbook.xml') || (s.includes('[Content_Types].xml') && s.includes('xl/'));
}

/**
 * Checks that bytes are plain UTF-8 text, piece by piece: well-formed sequences and no control
 * character but tab, line feed, form feed and carriage return. Text has no signature, so a
 * ticket's csv or txt file is read whole through it (the browser checks the file's start).
 */
export class PlainTextCheck {
  private pending = 0;
  private bad = false;

  push(bytes: Uint8Array): this {
    for (let i = 0; i < bytes.length && !this.bad; i++) {
      const b = bytes[i] as number;
      if (this.pending > 0) {
        this.bad = (b & 0xc0) !== 0x80;
        this.pending--;
      } else if (b < 0x80) {
        this.bad = (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d) || b === 0x7f;
      } else if (b >= 0xc2 && b <= 0xdf) this.pending = 1;
      else if (b >= 0xe0 && b <= 0xef) this.pending = 2;
      else if (b >= 0xf0 && b <= 0xf4) this.pending = 3;
      else this.bad = true;
    }
    return this;
  }

  /** Whether everything pushed was text; `cut` allows a character cut short at the end. */
  isText(cut = false): boolean {
    return !this.bad && (cut || this.pending === 0);
  }
}

/** Whether `bytes` (a whole file, or its start when `cut`) are plain UTF-8 text. */
export function isPlainText(bytes: Uint8Array, cut = false): boolean {
  return new PlainTextCheck().push(bytes).isText(cut);
}

/** Whether a campaign file of `kind` may be of `type`. */
export function campaignKindAccepts(kind: CampaignFileKind, type: FileType | null): boolean {
  if (type === null) return false;
  switch (kind) {
    case 'dp':
      return type.ext === 'png' || type.ext === 'jpg';
    case 'image':
      return type.family === 'image';
    case 'singleCreative':
      return type.family === 'image' || type.family === 'video' || type.family === 'pdf';
    case 'video':
      return type.family === 'video';
    case 'pdf':
      return type.family === 'pdf';
    case 'audio':
      return type.family === 'audio';
  }
}

/**
 * A file's type from its first bytes, never its name or declared type (decisions.md: "type by
 * content (magic bytes, not the name)"). The browser checks a chosen file with it before
 * uploading and the server checks the stored upload again, so both read the same table.
 */
import type { CampaignFileKind } from './schemas/campaigns.js';

export type FileFamily = 'image' | 'video' | 'pdf' | 'audio';

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
} as const satisfies Record<string, { mime: string; family: FileFamily }>;

export type FileExt = keyof typeof TYPES;

export interface FileType {
  /** The extension a stored copy is given. */
  ext: FileExt;
  mime: string;
  family: FileFamily;
}

/** How many leading bytes detectFileType looks at. */
export const FILE_TYPE_HEAD_BYTES = 12;

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
  if (ascii(4, 8) === 'ftyp') {
    const brand = ascii(8, 12);
    if (brand === 'M4A ' || brand === 'M4B ') return typeOf('m4a');
    // QuickTime shares the box layout but is not mp4 (spec 5: video is mp4).
    return brand === 'qt  ' ? null : typeOf('mp4');
  }
  if (ascii(0, 5) === '%PDF-') return typeOf('pdf');
  if (ascii(0, 4) === 'OggS') return typeOf('ogg');
  // An ID3 tag, or an MPEG audio frame sync (11 set bits).
  if (ascii(0, 3) === 'ID3' || (b(0) === 0xff && (b(1) & 0xe0) === 0xe0)) return typeOf('mp3');
  return null;
}

/** Whether a campaign file of `kind` may be of `type` (spec 5 "File rules"). */
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

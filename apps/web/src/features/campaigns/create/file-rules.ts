/**
 * The media rules of spec 5 ("File rules") as the browser checks them before uploading; the
 * server checks the same again (campaign-files.ts): size per kind, type by the first bytes
 * (never the name), DP dimensions.
 */
import {
  DP_MAX_PX,
  DP_MIN_PX,
  FILE_LIMITS,
  MAX_CAMPAIGN_IMAGES,
  server,
  ui,
  CAMPAIGN_FILE_FIELDS,
  type CampaignFileField,
  type CampaignFileKind,
} from '@herald/contract';

/** A media input of the form, by its multipart field name (spec 7). */
export type MediaField = CampaignFileField;

export const FIELD_KIND: Readonly<Record<MediaField, CampaignFileKind>> = CAMPAIGN_FILE_FIELDS;

/** What each picker offers; the content is what counts (sniffFamily). */
export const FIELD_ACCEPT: Readonly<Record<MediaField, string>> = {
  dp: 'image/png,image/jpeg',
  singleCreative: 'image/*,video/mp4,application/pdf',
  images: 'image/*',
  video: 'video/mp4',
  pdf: 'application/pdf',
  audio: 'audio/*',
};

const MB = 1024 * 1024;

/** The kind's limit in whole MB, as the message says it (3 or 5). */
export function limitMb(field: MediaField): number {
  return Math.round(FILE_LIMITS[FIELD_KIND[field]] / MB);
}

export function sizeError(field: MediaField, size: number): string | null {
  return size > FILE_LIMITS[FIELD_KIND[field]] ? ui.campaigns.fileTooLarge(limitMb(field)) : null;
}

export type FileFamily = 'png' | 'jpg' | 'image' | 'video' | 'audio' | 'pdf';

/** The file's type from its first 12 bytes, like the server's `detect`; null when unknown. */
export function sniffFamily(head: Uint8Array): FileFamily | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  const b = (i: number) => head[i] ?? -1;
  if (b(0) === 0x89 && ascii(1, 4) === 'PNG') return 'png';
  if (b(0) === 0xff && b(1) === 0xd8 && b(2) === 0xff) return 'jpg';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'audio';
  if (ascii(4, 8) === 'ftyp') {
    const brand = ascii(8, 12);
    if (brand === 'M4A ' || brand === 'M4B ') return 'audio';
    return brand === 'qt  ' ? null : 'video';
  }
  if (ascii(0, 5) === '%PDF-') return 'pdf';
  if (ascii(0, 4) === 'OggS' || ascii(0, 3) === 'ID3') return 'audio';
  if (b(0) === 0xff && (b(1) & 0xe0) === 0xe0) return 'audio';
  return null;
}

/** Which sniffed types each field takes (spec 5: DP png/jpeg, video mp4, creative image/mp4/pdf). */
export function accepts(field: MediaField, family: FileFamily | null): boolean {
  if (family === null) return false;
  const image = family === 'png' || family === 'jpg' || family === 'image';
  switch (field) {
    case 'dp':
      return family === 'png' || family === 'jpg';
    case 'images':
      return image;
    case 'singleCreative':
      return image || family === 'video' || family === 'pdf';
    case 'video':
      return family === 'video';
    case 'pdf':
      return family === 'pdf';
    case 'audio':
      return family === 'audio';
  }
}

export function typeError(field: MediaField, family: FileFamily | null): string | null {
  return accepts(field, family) ? null : server.campaignFileType(field);
}

export function dpDimensionsError(width: number, height: number): string | null {
  const ok = (n: number) => n >= DP_MIN_PX && n <= DP_MAX_PX;
  return ok(width) && ok(height) ? null : ui.campaigns.dpDimensions;
}

export function tooManyImagesError(count: number): string | null {
  return count > MAX_CAMPAIGN_IMAGES ? server.campaignTooManyImages : null;
}

async function readHead(file: File): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(0, 12).arrayBuffer());
}

/** Width and height of an image file, decoded by the browser; null when it cannot decode it. */
async function imageDimensions(file: File): Promise<{ width: number; height: number } | null> {
  try {
    const bitmap = await createImageBitmap(file);
    const dims = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return dims;
  } catch {
    return null;
  }
}

/**
 * Checks one chosen file for a field: size first (no read needed), then its first bytes, then
 * a DP's dimensions. Resolves to the message to show, or null when the file is accepted.
 */
export async function checkMediaFile(field: MediaField, file: File): Promise<string | null> {
  const tooLarge = sizeError(field, file.size);
  if (tooLarge) return tooLarge;
  let head: Uint8Array;
  try {
    head = await readHead(file);
  } catch {
    return ui.campaigns.fileUnreadable;
  }
  const wrongType = typeError(field, sniffFamily(head));
  if (wrongType) return wrongType;
  if (field !== 'dp') return null;
  const dims = await imageDimensions(file);
  if (!dims) return server.campaignFileType(field);
  return dpDimensionsError(dims.width, dims.height);
}

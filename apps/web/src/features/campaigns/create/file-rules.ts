/**
 * The media rules (docs/product.md, Campaigns) as the browser checks them before uploading; the
 * server checks the same again: size per kind, type by the first bytes (never the name; the
 * contract's file-types.ts, shared with the server), DP dimensions.
 */
import {
  DP_MAX_PX,
  DP_MIN_PX,
  FILE_LIMITS,
  FILE_TYPE_HEAD_BYTES,
  MAX_CAMPAIGN_IMAGES,
  server,
  ui,
  CAMPAIGN_FILE_FIELDS,
  campaignKindAccepts,
  detectFileType,
  type CampaignFileField,
  type CampaignFileKind,
  type FileType,
} from '@herald/contract';

/** A media input of the form, by its multipart field name. */
export type MediaField = CampaignFileField;

export const FIELD_KIND: Readonly<Record<MediaField, CampaignFileKind>> = CAMPAIGN_FILE_FIELDS;

/** What each picker offers; the content is what counts (detectFileType). */
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

export function typeError(field: MediaField, type: FileType | null): string | null {
  return campaignKindAccepts(FIELD_KIND[field], type) ? null : server.campaignFileType(field);
}

export function dpDimensionsError(width: number, height: number): string | null {
  const ok = (n: number) => n >= DP_MIN_PX && n <= DP_MAX_PX;
  return ok(width) && ok(height) ? null : ui.campaigns.dpDimensions;
}

export function tooManyImagesError(count: number): string | null {
  return count > MAX_CAMPAIGN_IMAGES ? server.campaignTooManyImages : null;
}

async function readHead(file: File): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(0, FILE_TYPE_HEAD_BYTES).arrayBuffer());
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
  const wrongType = typeError(field, detectFileType(head));
  if (wrongType) return wrongType;
  if (field !== 'dp') return null;
  const dims = await imageDimensions(file);
  if (!dims) return server.campaignFileType(field);
  return dpDimensionsError(dims.width, dims.height);
}

import fs from 'node:fs/promises';
import path from 'node:path';
import { detectFileType, type FileType } from '@herald/contract';
import { storeUnderNewName } from '../../lib/uploads.js';

/**
 * Announcement images on disk: `${uploadsDir}/announcements/<uuid>.<ext>`, served publicly at
 * `/api/files/announcements/<name>` (public files are images only: docs/product.md, Branding). Names are
 * generated, never the client's; the type comes from the file's first bytes, never its name or
 * declared type.
 */

export const ANNOUNCEMENT_IMAGE_URL_PREFIX = '/api/files/announcements/';

const IMAGE_NAME =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg|gif|webp)$/;

/** The image's type by its first bytes (png, jpeg, gif or webp); null for anything else. */
export function imageTypeOf(data: Uint8Array): FileType | null {
  const type = detectFileType(data);
  return type?.family === 'image' ? type : null;
}

/** Strict: only names this module generates, so a request can never reach another path. */
export function isImageName(name: string): boolean {
  return IMAGE_NAME.test(name);
}

const MIME_BY_EXT: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

export function imageContentType(name: string): string {
  return MIME_BY_EXT[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
}

export function imagesDir(uploadsDir: string): string {
  return path.join(uploadsDir, 'announcements');
}

export function imagePath(uploadsDir: string, name: string): string {
  return path.join(imagesDir(uploadsDir), path.basename(name));
}

export function imageUrl(name: string): string {
  return `${ANNOUNCEMENT_IMAGE_URL_PREFIX}${name}`;
}

/** Writes the image under a new name; a reader never sees a half-written file. */
export function storeImage(uploadsDir: string, data: Buffer, type: FileType): Promise<string> {
  return storeUnderNewName(imagesDir(uploadsDir), data, type.ext);
}

/** Removes an image by its stored name; a file already gone (or a name not ours) is fine. */
export async function deleteImage(uploadsDir: string, name: string | null): Promise<void> {
  if (name && isImageName(name)) await fs.rm(imagePath(uploadsDir, name), { force: true });
}

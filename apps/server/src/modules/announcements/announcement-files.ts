import { detectFileType, type FileType } from '@herald/contract';
import { storageKey, type FileStore } from '../../lib/storage/file-store.js';
import { storeUnderNewName } from '../../lib/uploads.js';

/**
 * Announcement images in the FileStore: `uploads/announcements/<uuid>.<ext>`, served publicly
 * by every instance at `/api/files/announcements/<name>` (public files are images only: docs/product.md, Branding). Names are
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

/** The images' folder in the FileStore. */
export const IMAGES_FOLDER = 'uploads/announcements';

export function imageUrl(name: string): string {
  return `${ANNOUNCEMENT_IMAGE_URL_PREFIX}${name}`;
}

/** Writes the image under a new name; a reader never sees a half-written file. */
export function storeImage(store: FileStore, data: Buffer, type: FileType): Promise<string> {
  return storeUnderNewName(store, IMAGES_FOLDER, data, type.ext);
}

/** Removes an image by its stored name; one already gone (or a name not ours) is fine. */
export async function deleteImage(store: FileStore, name: string | null): Promise<void> {
  if (name && isImageName(name)) await store.delete(storageKey(IMAGES_FOLDER, name));
}

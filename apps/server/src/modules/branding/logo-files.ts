import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import { detectFileType, server as msg } from '@herald/contract';
import { badRequest } from '../../lib/app-error.js';
import { storageKey, type FileStore } from '../../lib/storage/file-store.js';
import { storeUnderNewName } from '../../lib/uploads.js';

/**
 * Whitelabel logos in the FileStore: `uploads/logos/<uuid>.<png|jpg>`, served publicly at
 * `/api/files/logos/<name>` by every instance. Names are generated, never the client's; the type comes from the
 * file's first bytes, never its name or declared type (docs/product.md, Decisions).
 */
export type LogoExt = 'png' | 'jpg';

export const LOGO_URL_PREFIX = '/api/files/logos/';

const LOGO_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg)$/;

/** The logo's type by its first bytes (png or jpeg only); null for anything else. */
export function logoExtOf(data: Uint8Array): LogoExt | null {
  const type = detectFileType(data);
  return type?.ext === 'png' || type?.ext === 'jpg' ? type.ext : null;
}

/** Strict: only names this module generates, so a request can never reach another path. */
export function isLogoName(name: string): boolean {
  return LOGO_NAME.test(name);
}

export function logoContentType(name: string): string {
  return name.endsWith('.png') ? 'image/png' : 'image/jpeg';
}

/** The logos' folder in the FileStore. */
export const LOGOS_FOLDER = 'uploads/logos';

export function logoUrl(name: string): string {
  return `${LOGO_URL_PREFIX}${name}`;
}

/** The file name behind a stored `companyLogo` URL, or null when it is not one of ours. */
function logoNameOf(url: string): string | null {
  if (!url.startsWith(LOGO_URL_PREFIX)) return null;
  const name = url.slice(LOGO_URL_PREFIX.length);
  return isLogoName(name) ? name : null;
}

/** Writes the logo under a new name; a reader never sees a half-written file. */
export function storeLogo(store: FileStore, data: Buffer, ext: LogoExt): Promise<string> {
  return storeUnderNewName(store, LOGOS_FOLDER, data, ext);
}

/** Removes a logo by name; one already gone is fine. */
export async function deleteLogoFile(store: FileStore, name: string): Promise<void> {
  await store.delete(storageKey(LOGOS_FOLDER, name));
}

/** Removes the logo behind a stored `companyLogo` URL (ignores URLs that are not ours). */
export async function deleteLogoAt(store: FileStore, url: string | null): Promise<void> {
  const name = url ? logoNameOf(url) : null;
  if (name) await deleteLogoFile(store, name);
}

/** A logo upload whose bytes were checked: png or jpeg. */
export interface CheckedLogo {
  data: Buffer;
  ext: LogoExt;
}

/** Checks an uploaded logo by its bytes; refuses anything but png or jpeg (docs/product.md, Branding). */
export function checkLogo(data: Buffer | null): CheckedLogo | null {
  if (!data) return null;
  const ext = logoExtOf(data);
  if (!ext) throw badRequest(msg.logoType);
  return { data, ext };
}

/**
 * The side menu shows a logo in a box of at most 200 × 50 CSS pixels (the web app's
 * `.brand-logo`); it is kept at twice that, for screens of two device pixels per CSS pixel, so a
 * phone never downloads a 1 MB logo to draw it 200 pixels wide (docs/performance.md, Page
 * speed). Smaller logos are kept as they came.
 */
export const LOGO_MAX_WIDTH = 400;
export const LOGO_MAX_HEIGHT = 100;

/**
 * The logo scaled down (sharp, keeping its proportions and its type) to fit the stored size,
 * turned upright by its EXIF orientation. Bytes that look like png or jpeg but do not decode
 * are refused as a logo of the wrong type.
 */
export async function fitLogo(logo: CheckedLogo): Promise<CheckedLogo> {
  try {
    const { width, height, orientation } = await sharp(logo.data).metadata();
    if (width <= LOGO_MAX_WIDTH && height <= LOGO_MAX_HEIGHT && (orientation ?? 1) === 1) {
      return logo;
    }
    const image = sharp(logo.data).rotate().resize({
      width: LOGO_MAX_WIDTH,
      height: LOGO_MAX_HEIGHT,
      fit: 'inside',
      withoutEnlargement: true,
    });
    const data = await (
      logo.ext === 'png'
        ? image.png({ compressionLevel: 9 })
        : image.jpeg({ quality: 85, mozjpeg: true })
    ).toBuffer();
    return { data, ext: logo.ext };
  } catch {
    throw badRequest(msg.logoType);
  }
}

/**
 * A change of a user's logo, as Edit User and Whitelabel Settings make it. The new logo is
 * put in the store under a generated name before `write` runs (outside its transaction); if `write` fails
 * the new file is removed again, and once it has succeeded (committed) the logo it replaced,
 * `oldLogo`, is deleted. A failure never loses the stored logo; a crash between the commit and
 * the delete leaves an orphan for the sweep (logo-orphans.ts).
 */
export async function changeLogo<T extends { oldLogo: string | null }>(
  store: FileStore,
  logo: CheckedLogo | null,
  write: (newLogoName: string | null) => Promise<T>,
  log: FastifyBaseLogger,
): Promise<T> {
  const fitted = logo ? await fitLogo(logo) : null;
  const newLogoName = fitted ? await storeLogo(store, fitted.data, fitted.ext) : null;
  let result: T;
  try {
    result = await write(newLogoName);
  } catch (err) {
    if (newLogoName) await deleteLogoFile(store, newLogoName).catch(() => {});
    throw err;
  }
  if (result.oldLogo) {
    await deleteLogoAt(store, result.oldLogo).catch((err: unknown) => {
      log.warn({ err }, 'could not delete a replaced logo');
    });
  }
  return result;
}

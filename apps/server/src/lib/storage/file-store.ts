import type { Readable } from 'node:stream';

/**
 * Every file Herald keeps (campaign media, ticket attachments, logos, announcement images,
 * saved backups, backup downloads being built) is written and read through a FileStore, so two
 * instances on one database see the same files (docs/operations.md, File storage). Two drivers:
 * a folder under DATA_DIR (local-store.ts, the default) and S3-compatible object storage
 * (s3-store.ts, STORAGE_URL=s3://…).
 *
 * Keys are relative paths of generated names (`uploads/campaigns/<uuid>.png`); `storageKey`
 * refuses anything else, so a tampered row can never reach another path or object.
 */

export interface StoredObject {
  key: string;
  /** Bytes. */
  size: number;
  /** When the object was last written. */
  modified: Date;
}

export interface OpenedObject {
  stream: Readable;
  /** Bytes, known before the first byte is read (a download's Content-Length). */
  size: number;
}

export interface FileStore {
  readonly driver: 'local' | 's3';
  /**
   * Writes the whole of `body` under `key`. A reader sees the old object or the whole new one,
   * never part of it; when `body` fails, nothing is left under `key`.
   */
  put(key: string, body: Readable | Buffer, opts?: { contentType?: string }): Promise<void>;
  /** Moves a local file (a staged upload) under `key`; the local file is gone afterwards. */
  putFile(key: string, filePath: string, opts?: { contentType?: string }): Promise<void>;
  /** Opens `key` for reading; null when there is no such object. */
  open(key: string): Promise<OpenedObject | null>;
  /** Size and time of `key`; null when there is no such object. */
  stat(key: string): Promise<StoredObject | null>;
  /** Deletes `key`; an object already gone is fine. */
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `prefix` (a folder, ending in `/`), in no set order. */
  list(prefix: string): AsyncIterable<StoredObject>;
  /** Where `key` is, for a person reading the log: a file path or an s3:// URL. */
  where(key: string): string;
  /** Releases connections (the S3 client's sockets). */
  close(): Promise<void>;
}

/** One path segment: a generated name, never `.` or `..` or a hidden name. */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** True when `key` is a relative path of plain names (what a FileStore accepts). */
export function isStorageKey(key: string): boolean {
  const parts = key.split('/');
  return parts.length > 0 && parts.every((p) => SEGMENT.test(p) && !p.includes('..'));
}

/** `folder/name` checked as a key; throws for anything a store must not be asked for. */
export function storageKey(...parts: string[]): string {
  const key = parts.join('/');
  if (!isStorageKey(key)) throw new Error(`not a storage key: ${JSON.stringify(key)}`);
  return key;
}

/** A folder's prefix for `list`: `uploads/campaigns/`. */
export function storagePrefix(...parts: string[]): string {
  return `${storageKey(...parts)}/`;
}

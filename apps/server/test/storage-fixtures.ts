import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FileStore, StoredObject } from '../src/lib/storage/file-store.js';
import { s3StorageEnv } from './harness.js';

/**
 * What the tests of kept files share: both storage drivers, and reading the store back. Tests
 * look through the store, never at DATA_DIR's paths, so they run the same on both drivers.
 */

/** The local driver even when TEST_STORAGE=s3 (an empty STORAGE_URL is unset). */
export const LOCAL_STORAGE_ENV = { STORAGE_URL: '' };

/** Both drivers: the app's env for each (the S3 one is made inside the test run, per app). */
export const STORAGE_DRIVERS: [string, () => Record<string, string>][] = [
  ['local', () => LOCAL_STORAGE_ENV],
  ['s3', s3StorageEnv],
];

/** Every object under `prefix` (a folder ending in '/'), sorted by key. */
export async function objectsUnder(store: FileStore, prefix: string): Promise<StoredObject[]> {
  const out: StoredObject[] = [];
  for await (const obj of store.list(prefix)) out.push(obj);
  return out.sort((a, b) => (a.key < b.key ? -1 : 1));
}

export async function keysUnder(store: FileStore, prefix: string): Promise<string[]> {
  return (await objectsUnder(store, prefix)).map((o) => o.key);
}

/** The names stored in `folder`, sorted. */
export async function storedNames(store: FileStore, folder: string): Promise<string[]> {
  return (await keysUnder(store, `${folder}/`)).map((key) => key.slice(folder.length + 1));
}

/** The whole of a stored object, or null when there is none. */
export async function storedBytes(store: FileStore, key: string): Promise<Buffer | null> {
  const opened = await store.open(key);
  if (!opened) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A fresh DATA_DIR, sharing nothing on disk with any other; the caller removes it. */
export function freshDataDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'herald-test-other-'));
}

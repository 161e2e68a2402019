import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FileStore, StoredObject } from '../../lib/storage/file-store.js';
import { s3StorageEnv } from '../../../test/harness.js';

/** What the backup tests share: the two storage drivers and reading the store back. */

/** Each storage driver's environment for createTestApp (made when the suite starts). */
export const DRIVERS: [string, () => Record<string, string>][] = [
  // STORAGE_URL empty is the local driver, even in a run that makes S3 every app's default.
  ['local', () => ({ STORAGE_URL: '' })],
  ['s3', s3StorageEnv],
];

export async function bytesOf(store: FileStore, key: string): Promise<Buffer | null> {
  const opened = await store.open(key);
  if (!opened) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function objectsUnder(store: FileStore, prefix: string): Promise<StoredObject[]> {
  const out: StoredObject[] = [];
  for await (const obj of store.list(prefix)) out.push(obj);
  return out.sort((a, b) => (a.key < b.key ? -1 : 1));
}

export async function keysUnder(store: FileStore, prefix: string): Promise<string[]> {
  return (await objectsUnder(store, prefix)).map((o) => o.key);
}

/** A DATA_DIR of its own, for a second instance that shares nothing on disk with the first. */
export function freshDataDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'herald-test-other-'));
}

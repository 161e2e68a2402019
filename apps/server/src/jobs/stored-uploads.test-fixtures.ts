import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { FileStore } from '../lib/storage/file-store.js';
import { s3StorageEnv, type TestApp } from '../../test/harness.js';

/**
 * Test-only helpers for the uploads kept in the FileStore (ticket attachments, logos,
 * announcement images): tests look through the store, never at DATA_DIR's paths, so they run
 * the same on both drivers.
 */

/** The local driver even when TEST_STORAGE=s3 (an empty STORAGE_URL is unset). */
export const LOCAL_STORAGE_ENV = { STORAGE_URL: '' };

/** Both drivers: the app's env for each (the S3 one is made inside the test run, per app). */
export const STORAGE_DRIVERS: [string, () => Record<string, string>][] = [
  ['local', () => LOCAL_STORAGE_ENV],
  ['s3', s3StorageEnv],
];

/**
 * A second instance on the same database. On S3 it gets a DATA_DIR of its own, so what it
 * serves can only come from the shared store; the local driver's files are DATA_DIR's, so
 * there it shares the first one's.
 */
export async function otherInstance(t: TestApp): Promise<FastifyInstance> {
  if (t.app.ctx.files.driver === 'local') return t.secondInstance();
  return t.secondInstance({ dataDir: await freshDataDir() });
}

/** The names stored in `folder`, sorted. */
export async function storedNames(store: FileStore, folder: string): Promise<string[]> {
  const names: string[] = [];
  for await (const obj of store.list(`${folder}/`)) names.push(obj.key.slice(folder.length + 1));
  return names.sort();
}

/** The whole of a stored object, or null when there is none. */
export async function storedBytes(store: FileStore, key: string): Promise<Buffer | null> {
  const opened = await store.open(key);
  if (!opened) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A fresh DATA_DIR for a second instance, so it shares nothing on disk with the first. */
export function freshDataDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'herald-test-other-'));
}

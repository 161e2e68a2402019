import path from 'node:path';
import type { FileStore } from './file-store.js';
import { LocalFileStore } from './local-store.js';
import { S3FileStore } from './s3-store.js';
import type { StorageTarget } from './storage-url.js';

/** The store a parsed STORAGE_URL names; the local one is rooted at `dataDir`. */
export function openFileStore(target: StorageTarget, dataDir: string): FileStore {
  if (target.driver === 'local') return new LocalFileStore(path.resolve(dataDir));
  return new S3FileStore(target);
}

import fs from 'node:fs/promises';
import { createReadStream, createWriteStream, type Dirent } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isStorageKey, type FileStore, type StoredObject } from './file-store.js';

/**
 * The local driver: objects are files under `root` (DATA_DIR), at their key's path, so a folder
 * written before the storage layer existed reads as it is. A write goes to `root/.partial/`
 * (flushed) and is renamed into place, so no reader sees half a file; `.partial` is not a key
 * (keys never start with a dot) and what a crash leaves there is removed by
 * `removeStalePartials` at start-up.
 */

const PARTIAL = '.partial';

function errorCode(err: unknown): unknown {
  return typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
}

function isMissing(err: unknown): boolean {
  const code = errorCode(err);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export class LocalFileStore implements FileStore {
  readonly driver = 'local' as const;

  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    if (!isStorageKey(key)) throw new Error(`not a storage key: ${JSON.stringify(key)}`);
    return path.join(this.root, ...key.split('/'));
  }

  private async partial(): Promise<string> {
    const dir = path.join(this.root, PARTIAL);
    await fs.mkdir(dir, { recursive: true });
    return path.join(dir, randomUUID());
  }

  private async moveIntoPlace(from: string, key: string): Promise<void> {
    const target = this.pathOf(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(from, target);
  }

  async put(key: string, body: Readable | Buffer): Promise<void> {
    const target = this.pathOf(key);
    const temp = await this.partial();
    const out = createWriteStream(temp, { flags: 'wx', flush: true, mode: 0o600 });
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, out);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.rename(temp, target);
    } catch (err) {
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      await fs.rm(temp, { force: true });
      throw err;
    }
  }

  async putFile(key: string, filePath: string): Promise<void> {
    try {
      await this.moveIntoPlace(filePath, key);
    } catch (err) {
      // Another file system (a staging folder on another disk): copy, then remove the original.
      if (errorCode(err) !== 'EXDEV') throw err;
      await this.put(key, createReadStream(filePath));
      await fs.rm(filePath, { force: true });
    }
  }

  async open(key: string) {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(this.pathOf(key), 'r');
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) {
        await handle.close();
        return null;
      }
      return { stream: handle.createReadStream(), size: stat.size };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    const stat = await fs.stat(this.pathOf(key)).catch((err: unknown) => {
      if (isMissing(err)) return null;
      throw err;
    });
    return stat?.isFile() ? { key, size: stat.size, modified: stat.mtime } : null;
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    const folder = prefix.replace(/\/$/, '');
    if (!isStorageKey(folder)) throw new Error(`not a storage prefix: ${JSON.stringify(prefix)}`);
    yield* this.walk(folder);
  }

  private async *walk(folder: string): AsyncIterable<StoredObject> {
    let entries: Dirent[];
    try {
      entries = await fs.readdir(this.pathOf(folder), { withFileTypes: true });
    } catch (err) {
      if (isMissing(err)) return; // nothing was ever written there
      throw err;
    }
    for (const entry of entries) {
      const key = `${folder}/${entry.name}`;
      if (!isStorageKey(key)) continue;
      if (entry.isDirectory()) yield* this.walk(key);
      else if (entry.isFile()) {
        const found = await this.stat(key);
        if (found) yield found;
      }
    }
  }

  where(key: string): string {
    return this.pathOf(key);
  }

  async close(): Promise<void> {}

  /** Removes what writes interrupted by a crash left in `.partial/` (older than `olderThanMs`). */
  async removeStalePartials(olderThanMs: number): Promise<number> {
    const dir = path.join(this.root, PARTIAL);
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    const cutoff = Date.now() - olderThanMs;
    let removed = 0;
    for (const name of names) {
      const stat = await fs.stat(path.join(dir, name)).catch(() => null);
      if (stat && stat.mtimeMs < cutoff) {
        await fs.rm(path.join(dir, name), { force: true });
        removed++;
      }
    }
    return removed;
  }
}

import fs from 'node:fs/promises';
import type { FileStore } from './storage/file-store.js';
import { storageKey } from './storage/file-store.js';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Uploads, one way for every module (campaign media, ticket attachments, announcement images,
 * logos): bytes stream to a temp file in the instance's staging folder under a generated name
 * and are checked by content before they are put in the FileStore under their final name; the
 * client's name is only ever a display name.
 */

/** Enough of the start of a file to find its type and, for images, its size. */
export const HEAD_BYTES = 256 * 1024;

export interface StagedUpload {
  id: string;
  /** `<dir>/<id>.tmp`, flushed to disk. */
  filePath: string;
  size: number;
  /** The first HEAD_BYTES bytes (fewer for a smaller file). */
  head: Buffer;
}

export interface StageOptions {
  maxBytes: number;
  /** The error for a file past `maxBytes` (the route's 413 with its message). */
  tooLarge: () => Error;
  /** Sees every chunk as it passes (a hash, a text check). */
  onChunk?: (chunk: Buffer) => void;
}

/** Streams `source` to `<dir>/<uuid>.tmp`; past `maxBytes` the temp file is removed and `tooLarge()` thrown. */
export async function stageUpload(
  dir: string,
  source: Readable,
  opts: StageOptions,
): Promise<StagedUpload> {
  const id = randomUUID();
  const filePath = path.join(dir, `${id}.tmp`);
  const headChunks: Buffer[] = [];
  let size = 0;
  let headSize = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > opts.maxBytes) return done(opts.tooLarge());
      opts.onChunk?.(chunk);
      if (headSize < HEAD_BYTES) {
        headChunks.push(chunk);
        headSize += chunk.length;
      }
      done(null, chunk);
    },
  });
  const out = createWriteStream(filePath, { flags: 'wx', flush: true });
  try {
    await pipeline(source, meter, out);
  } catch (err) {
    // A stream failing early can reject the pipeline before the file is even open: wait until
    // it is closed, or the rm would run first and the open would leave the temp file behind.
    if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
    await fs.rm(filePath, { force: true });
    if (isFileTooLarge(err)) throw opts.tooLarge();
    throw err;
  }
  return { id, filePath, size, head: Buffer.concat(headChunks).subarray(0, HEAD_BYTES) };
}

/** @fastify/multipart's own limit, hit before ours when its fileSize is the smaller. */
function isFileTooLarge(err: unknown): boolean {
  return (
    typeof err === 'object' &&
    err !== null &&
    'code' in err &&
    err.code === 'FST_REQ_FILE_TOO_LARGE'
  );
}

/**
 * Stores `data` (already checked) as `<folder>/<uuid>.<ext>` (the store writes it whole or not
 * at all, so a reader never sees half a file); answers the new name.
 */
export async function storeUnderNewName(
  store: FileStore,
  folder: string,
  data: Buffer,
  ext: string,
): Promise<string> {
  const name = `${randomUUID()}.${ext}`;
  await store.put(storageKey(folder, name), data);
  return name;
}

/** The client's name, reduced to a safe display and download name (never used as a path). */
export function sanitiseName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base
    // Control characters, bidi overrides and quotes.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069"]/g, '')
    .replace(/^[.\s]+/, '')
    .trim();
  return clean.slice(-200) || 'file';
}

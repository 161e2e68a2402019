import fs from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DP_MAX_PX,
  DP_MIN_PX,
  FILE_LIMITS,
  server as msg,
  CAMPAIGN_FILE_FIELDS,
  campaignKindAccepts,
  detectFileType,
  type CampaignFileKind,
  type FileType,
} from '@herald/contract';
import { AppError, badRequest } from '../../lib/app-error.js';

/**
 * Campaign media on disk (decisions.md sections 4 and 7, reliability.md 3.7 and F7): each file
 * streams to `<uploads>/campaigns/<uuid>.tmp` (flushed), is checked by its first bytes (never
 * its name or declared type), then renamed to `<uuid>.<ext>`; the database row comes last.
 */

/** Form field → stored kind. */
export const FILE_FIELDS: Readonly<Record<string, CampaignFileKind>> = CAMPAIGN_FILE_FIELDS;

/** Enough of the start of a file to find its type and, for images, its size. */
const HEAD_BYTES = 256 * 1024;

export interface StagedFile {
  field: string;
  kind: CampaignFileKind;
  id: string;
  /** Where the bytes are now: the temp file, then the final one after `commitFile`. */
  filePath: string;
  originalName: string;
  size: number;
  sha256: string;
  head: Buffer;
}

export function campaignsDir(uploadsDir: string): string {
  return path.join(uploadsDir, 'campaigns');
}

const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));

/** Streams one upload to a temp file; 413 with the spec's message past the kind's limit. */
export async function stageFile(
  dir: string,
  field: string,
  kind: CampaignFileKind,
  filename: string,
  source: Readable,
): Promise<StagedFile> {
  const limit = FILE_LIMITS[kind === 'image' ? 'image' : kind];
  const tooLarge = () => new AppError(413, msg.campaignFileTooLarge(mb(limit)));
  const id = randomUUID();
  const filePath = path.join(dir, `${id}.tmp`);
  const hash = createHash('sha256');
  const headChunks: Buffer[] = [];
  let size = 0;
  let headSize = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > limit) return done(tooLarge());
      hash.update(chunk);
      if (headSize < HEAD_BYTES) {
        headChunks.push(chunk);
        headSize += chunk.length;
      }
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, meter, createWriteStream(filePath, { flags: 'wx', flush: true }));
  } catch (err) {
    await fs.rm(filePath, { force: true });
    if (isFileTooLarge(err)) throw tooLarge();
    throw err;
  }
  const head = Buffer.concat(headChunks).subarray(0, HEAD_BYTES);
  const sha256 = hash.digest('hex');
  return { field, kind, id, filePath, originalName: sanitiseName(filename), size, sha256, head };
}

function isFileTooLarge(err: unknown): boolean {
  return (
    typeof err === 'object' &&
    err !== null &&
    'code' in err &&
    err.code === 'FST_REQ_FILE_TOO_LARGE'
  );
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

/** Width and height from a PNG IHDR or a JPEG SOF header; null when not found. */
export function imageSize(head: Buffer, ext: string): { width: number; height: number } | null {
  if (ext === 'png') {
    if (head.length < 24 || head.toString('latin1', 12, 16) !== 'IHDR') return null;
    return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
  }
  if (ext !== 'jpg') return null;
  let at = 2;
  while (at + 9 <= head.length) {
    if (head[at] !== 0xff) return null;
    const marker = head[at + 1] ?? 0;
    if (marker === 0xff) {
      at++;
      continue;
    }
    const isSof = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
    if (isSof) return { height: head.readUInt16BE(at + 5), width: head.readUInt16BE(at + 7) };
    at += 2 + head.readUInt16BE(at + 2);
  }
  return null;
}

/**
 * Checks a staged file's content against its kind, by its first bytes (the contract's
 * file-types.ts, which the browser checked too); returns its type. 400 when wrong.
 */
export function checkFile(file: StagedFile): FileType {
  const d = detectFileType(file.head);
  if (!d || !campaignKindAccepts(file.kind, d)) throw badRequest(msg.campaignFileType(file.field));
  if (file.kind === 'dp') {
    const dims = imageSize(file.head, d.ext);
    const ok = (n: number) => n >= DP_MIN_PX && n <= DP_MAX_PX;
    if (!dims || !ok(dims.width) || !ok(dims.height)) throw badRequest(msg.campaignDpDimensions);
  }
  return d;
}

/** Renames a checked temp file to its final generated name; returns that name. */
export async function commitFile(dir: string, file: StagedFile, ext: string): Promise<string> {
  const name = `${file.id}.${ext}`;
  const target = path.join(dir, name);
  await fs.rename(file.filePath, target);
  file.filePath = target;
  return name;
}

/** Deletes every file a request wrote, wherever it got to; a missing file is fine. */
export async function discardFiles(files: readonly StagedFile[]): Promise<void> {
  await Promise.all(files.map((f) => fs.rm(f.filePath, { force: true })));
}

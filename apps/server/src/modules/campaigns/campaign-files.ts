import fs from 'node:fs/promises';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
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
import { sanitiseName, stageUpload } from '../../lib/uploads.js';

/**
 * Campaign media on disk (docs/product.md, Campaigns; a crash leaves no half-written file that a
 * row names, and campaign-orphans.ts sweeps the rest): each file
 * streams to `<uploads>/campaigns/<uuid>.tmp` (flushed), is checked by its first bytes (never
 * its name or declared type), then renamed to `<uuid>.<ext>`; the database row comes last.
 */

/** Form field → stored kind. */
export const FILE_FIELDS: Readonly<Record<string, CampaignFileKind>> = CAMPAIGN_FILE_FIELDS;

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

/** Streams one upload to a temp file; 413 with the contract's message past the kind's limit. */
export async function stageFile(
  dir: string,
  field: string,
  kind: CampaignFileKind,
  filename: string,
  source: Readable,
): Promise<StagedFile> {
  const limit = FILE_LIMITS[kind === 'image' ? 'image' : kind];
  const hash = createHash('sha256');
  const staged = await stageUpload(dir, source, {
    maxBytes: limit,
    tooLarge: () => new AppError(413, msg.campaignFileTooLarge(mb(limit))),
    onChunk: (chunk) => hash.update(chunk),
  });
  const sha256 = hash.digest('hex');
  return { field, kind, ...staged, originalName: sanitiseName(filename), sha256 };
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

/** After the data cleanup's commit: deletes the files of deleted campaigns; a missing file is fine. */
export async function removeCampaignFiles(
  uploadsDir: string,
  storedNames: readonly string[],
): Promise<void> {
  const dir = campaignsDir(uploadsDir);
  for (const name of storedNames) {
    if (name.includes('/') || name.includes('\\') || name.startsWith('.')) continue;
    await fs.rm(path.join(dir, name), { force: true });
  }
}

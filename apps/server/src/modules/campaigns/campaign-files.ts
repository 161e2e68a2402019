import fs from 'node:fs/promises';
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
import { storageKey, type FileStore } from '../../lib/storage/file-store.js';

/**
 * Campaign media in the FileStore (docs/product.md, Campaigns), so every instance serves what
 * any of them stored. Each file streams to this instance's staging folder (`<uuid>.tmp`), is
 * checked by its first bytes (never its name or declared type), then put in the store as
 * `uploads/campaigns/<uuid>.<ext>` (whole or not at all); the database row comes last. A crash
 * between the put and the row's commit leaves an object no row names: campaign-orphans.ts
 * sweeps those.
 */

/** The store folder of campaign media. */
export const CAMPAIGN_FILES_FOLDER = 'uploads/campaigns';

/**
 * The store key of a stored name; throws for anything but one plain generated name, so a
 * tampered row never reaches another object (not even one in a sub-folder).
 */
export function campaignFileKey(storedName: string): string {
  if (storedName.includes('/')) throw new Error(`not a stored name: ${JSON.stringify(storedName)}`);
  return storageKey(CAMPAIGN_FILES_FOLDER, storedName);
}

/** Form field → stored kind. */
export const FILE_FIELDS: Readonly<Record<string, CampaignFileKind>> = CAMPAIGN_FILE_FIELDS;

export interface StagedFile {
  field: string;
  kind: CampaignFileKind;
  id: string;
  /** The staged temp file (gone once `commitFile` has put it in the store). */
  filePath: string;
  /** The store key, set by `commitFile` before the put so a failed request deletes it too. */
  storedKey?: string;
  originalName: string;
  size: number;
  sha256: string;
  head: Buffer;
}

const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));

/** Streams one upload to a temp file in `dir` (the staging folder); 413 with the contract's message past the kind's limit. */
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

/** Puts a checked staged file in the store under its final generated name; returns that name. */
export async function commitFile(
  store: FileStore,
  file: StagedFile,
  type: Pick<FileType, 'ext' | 'mime'>,
): Promise<string> {
  const name = `${file.id}.${type.ext}`;
  file.storedKey = campaignFileKey(name);
  await store.putFile(file.storedKey, file.filePath, { contentType: type.mime });
  return name;
}

/** Deletes staged temp files (before any was put in the store); a missing one is fine. */
export async function discardStaged(files: readonly StagedFile[]): Promise<void> {
  await Promise.all(files.map((f) => fs.rm(f.filePath, { force: true })));
}

/**
 * Deletes every file a request wrote, wherever it got to: the staged temp file and, once put,
 * the stored object. A missing one is fine.
 */
export async function discardFiles(store: FileStore, files: readonly StagedFile[]): Promise<void> {
  await Promise.all(
    files.map(async (f) => {
      await fs.rm(f.filePath, { force: true });
      if (f.storedKey) await store.delete(f.storedKey);
    }),
  );
}

/**
 * After the data cleanup's commit: deletes the stored files of deleted campaigns; a missing one
 * is fine, and a name that is not a plain generated name is skipped, never followed.
 */
export async function removeCampaignFiles(
  store: FileStore,
  storedNames: readonly string[],
): Promise<void> {
  for (const name of storedNames) {
    let key: string;
    try {
      key = campaignFileKey(name);
    } catch {
      continue;
    }
    await store.delete(key);
  }
}

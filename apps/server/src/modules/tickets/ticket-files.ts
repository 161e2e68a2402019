import fs from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  PlainTextCheck,
  TICKET_ATTACHMENT_MAX_BYTES,
  server as msg,
  ticketFileType,
  type FileType,
} from '@herald/contract';
import { AppError, badRequest } from '../../lib/app-error.js';
import { isStorageKey, storageKey, type FileStore } from '../../lib/storage/file-store.js';
import { sanitiseName, stageUpload } from '../../lib/uploads.js';

/**
 * Ticket attachments (docs/product.md, Tickets): each file streams to a temp file in the
 * instance's staging folder (flushed), is checked by its content (never its name or declared
 * type), then put in the FileStore as `uploads/tickets/<uuid>.<ext>`, so every instance serves
 * it; the rows are written in the transaction that follows, and every file (staged or stored) is
 * deleted again when anything fails. The client's name is kept only as a display and download
 * name, never as a path.
 */

/** The attachments' folder in the FileStore. */
export const TICKETS_FOLDER = 'uploads/tickets';

export interface StagedAttachment {
  id: string;
  /** The staged temp file; gone once the file is in the store. */
  filePath: string;
  /** The name in the store, set just before the file is put there (`commitAttachments`). */
  storedName?: string;
  originalName: string;
  size: number;
  head: Buffer;
  /** Whether the whole file read as plain UTF-8 text (text has no signature to check). */
  wholeIsText: boolean;
}

const tooLarge = () =>
  new AppError(413, msg.ticketAttachmentTooLarge(TICKET_ATTACHMENT_MAX_BYTES / (1024 * 1024)));

/** Streams one upload to a temp file; 413 with the contract's message past 5 MB. */
export async function stageAttachment(
  dir: string,
  filename: string,
  source: Readable,
): Promise<StagedAttachment> {
  const text = new PlainTextCheck();
  const staged = await stageUpload(dir, source, {
    maxBytes: TICKET_ATTACHMENT_MAX_BYTES,
    tooLarge,
    onChunk: (chunk) => text.push(chunk),
  });
  return { ...staged, originalName: sanitiseName(filename), wholeIsText: text.isText() };
}

/** The attachment's type by content; 400 when it is none of images, pdf, csv, xlsx or txt. */
export function checkAttachment(file: StagedAttachment): FileType {
  const type = ticketFileType(file.head, file.originalName, file.size > file.head.length);
  if (!type || (type.family === 'text' && !file.wholeIsText)) {
    throw badRequest(msg.ticketAttachmentType);
  }
  return type;
}

/** Checks every file first, then puts each in the store under its final generated name. */
export async function commitAttachments(store: FileStore, files: StagedAttachment[]) {
  const types = files.map(checkAttachment);
  const rows = [];
  for (const [position, file] of files.entries()) {
    const type = types[position] as FileType;
    const storedName = `${file.id}.${type.ext}`;
    // Named before the put: if the put fails after the store took the bytes, the discard still
    // deletes the object (a missing one is fine).
    file.storedName = storedName;
    await store.putFile(storageKey(TICKETS_FOLDER, storedName), file.filePath);
    rows.push({
      stored_name: storedName,
      original_name: file.originalName,
      mime: type.mime,
      size: file.size,
      position,
    });
  }
  return rows;
}

/** Deletes the staged temp files of a request that stored nothing yet; a missing file is fine. */
export async function discardStaged(files: readonly StagedAttachment[]): Promise<void> {
  await Promise.all(files.map((f) => fs.rm(f.filePath, { force: true })));
}

/**
 * Deletes every file a request wrote, staged or stored, wherever it got to. It runs while the
 * request's own error goes on, so a failed delete is not thrown over it: the sweep
 * (ticket-orphans.ts) removes a stored file no row names.
 */
export async function discardAttachments(
  store: FileStore,
  files: readonly StagedAttachment[],
): Promise<void> {
  await Promise.allSettled([
    discardStaged(files),
    ...files.map((f) =>
      f.storedName ? store.delete(storageKey(TICKETS_FOLDER, f.storedName)) : undefined,
    ),
  ]);
}

/**
 * After the data cleanup's commit: deletes the attachments from the store; a missing one is
 * fine, and a name that is not a plain generated name (a tampered row) is skipped.
 */
export async function removeTicketFiles(
  store: FileStore,
  storedNames: readonly string[],
): Promise<void> {
  for (const name of storedNames) {
    const key = `${TICKETS_FOLDER}/${name}`;
    if (name.includes('/') || !isStorageKey(key)) continue;
    await store.delete(key);
  }
}

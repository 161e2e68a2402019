import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  PlainTextCheck,
  TICKET_ATTACHMENT_MAX_BYTES,
  server as msg,
  ticketFileType,
  type FileType,
} from '@herald/contract';
import { AppError, badRequest } from '../../lib/app-error.js';
import { sanitiseName, stageUpload } from '../../lib/uploads.js';

/**
 * Ticket attachments on disk (docs/product.md, Tickets): each file streams to
 * `<uploads>/tickets/<uuid>.tmp` (flushed), is checked by its content (never its name or
 * declared type), then renamed to `<uuid>.<ext>`; the rows are written in the transaction that
 * follows, and every file is deleted again when anything fails. The client's name is kept only
 * as a display and download name, never as a path.
 */

export interface StagedAttachment {
  id: string;
  /** Where the bytes are now: the temp file, then the final one after `commitAttachments`. */
  filePath: string;
  originalName: string;
  size: number;
  head: Buffer;
  /** Whether the whole file read as plain UTF-8 text (text has no signature to check). */
  wholeIsText: boolean;
}

export function ticketsDir(uploadsDir: string): string {
  return path.join(uploadsDir, 'tickets');
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

/** Checks every file first, then renames each to its final generated name. */
export async function commitAttachments(files: StagedAttachment[]) {
  const types = files.map(checkAttachment);
  const rows = [];
  for (const [position, file] of files.entries()) {
    const type = types[position] as FileType;
    const storedName = `${file.id}.${type.ext}`;
    const target = path.join(path.dirname(file.filePath), storedName);
    await fs.rename(file.filePath, target);
    file.filePath = target;
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

/** Deletes every file a request wrote, wherever it got to; a missing file is fine. */
export async function discardAttachments(files: readonly StagedAttachment[]): Promise<void> {
  await Promise.all(files.map((f) => fs.rm(f.filePath, { force: true })));
}

/** After the data cleanup's commit: deletes the attachment files; a missing file is fine. */
export async function removeTicketFiles(
  uploadsDir: string,
  storedNames: readonly string[],
): Promise<void> {
  const dir = ticketsDir(uploadsDir);
  for (const name of storedNames) {
    if (name.includes('/') || name.includes('\\') || name.startsWith('.')) continue;
    await fs.rm(path.join(dir, name), { force: true });
  }
}

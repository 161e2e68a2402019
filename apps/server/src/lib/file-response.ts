import type { FastifyReply } from 'fastify';
import { server as msg } from '@herald/contract';
import { AppError } from './app-error.js';
import type { FileStore, OpenedObject } from './storage/file-store.js';

/** Serving a stored file (ticket attachments, campaign media, backups) as a download. */

/**
 * Opens a file a row names, before any header is sent: one the storage no longer holds answers
 * 410 with a clear message, never a 500 or an empty download.
 */
export async function openStoredFile(store: FileStore, key: string): Promise<OpenedObject> {
  const opened = await store.open(key);
  if (!opened) throw new AppError(410, msg.fileGone);
  return opened;
}

/** `attachment` with an ASCII fallback name and the UTF-8 name (RFC 6266 / 5987). */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\;]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** A stored upload's row: its generated name, and what the download says of it. */
export interface StoredFile {
  stored_name: string;
  original_name: string;
  mime: string;
}

/**
 * Sends `file` from the store's `folder` as a download that a browser never runs: its own type,
 * `nosniff` and a sandboxing policy. The stored name is generated; `storageKey` refuses a
 * tampered row's name that would reach another object.
 */
export async function sendStoredFile(
  reply: FastifyReply,
  store: FileStore,
  folder: string,
  file: StoredFile,
): Promise<FastifyReply> {
  const { stream, size } = await openStoredFile(store, `${folder}/${file.stored_name}`);
  return reply
    .header('content-type', file.mime)
    .header('content-length', String(size))
    .header('content-disposition', attachmentDisposition(file.original_name))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .send(stream);
}

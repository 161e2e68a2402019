import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import { server as msg } from '@herald/contract';
import { notFound } from './app-error.js';

/** Serving a stored upload (ticket attachments, campaign media) as a download. */

/** Opens the file before any header is sent, so a file lost from disk answers 404. */
export async function openStoredFile(filePath: string): Promise<fs.ReadStream> {
  const handle = await fs.promises.open(filePath, 'r').catch(() => null);
  if (!handle) throw notFound(msg.notFound);
  return handle.createReadStream();
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

/** A stored upload's row: its generated name on disk, and what the download says of it. */
export interface StoredFile {
  stored_name: string;
  original_name: string;
  mime: string;
  /** Bytes (bigint columns come as text). */
  size: number | string;
}

/**
 * Sends `file` from `dir` as a download that a browser never runs: its own type, `nosniff` and
 * a sandboxing policy. The stored name is generated; basename keeps even a tampered row inside
 * the folder.
 */
export async function sendStoredFile(
  reply: FastifyReply,
  dir: string,
  file: StoredFile,
): Promise<FastifyReply> {
  const stream = await openStoredFile(path.join(dir, path.basename(file.stored_name)));
  return reply
    .header('content-type', file.mime)
    .header('content-length', String(file.size))
    .header('content-disposition', attachmentDisposition(file.original_name))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .send(stream);
}

import fs from 'node:fs';
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

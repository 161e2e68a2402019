import { ApiError, notifyUnauthorized, serverMessageOf } from './api-client';
import { getSession } from './auth-store';

/** A file fetched from the API, with the name to save it under. */
export interface FetchedFile {
  blob: Blob;
  filename: string;
}

export interface FetchFileOptions {
  /** The name when the response's Content-Disposition names nothing usable. */
  fallbackName: string;
  query?: Record<string, string>;
  accept?: string;
  signal?: AbortSignal;
  /** Bytes received so far, at most every 100 ms and once at the end. */
  onProgress?: (bytes: number) => void;
}

const PROGRESS_EVERY_MS = 100;

/**
 * The download name from Content-Disposition: RFC 5987 `filename*` first, then `filename`;
 * any path part is dropped; `fallback` when the header names nothing usable.
 */
export function downloadName(header: string | null | undefined, fallback: string): string {
  if (!header) return fallback;
  let name: string | undefined;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended?.[2]) {
    try {
      name = decodeURIComponent(extended[2].trim().replace(/^"|"$/g, ''));
    } catch {
      name = undefined;
    }
  }
  if (!name) {
    const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
    name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2]?.trim();
  }
  const base = name?.split(/[/\\]/).pop()?.trim();
  return base && base !== '.' && base !== '..' ? base : fallback;
}

/**
 * A GET of a file under /api with the bearer token (a raw fetch: api() parses JSON). Errors
 * are ApiErrors carrying the server's message; a 401 runs the session-expired handler.
 */
export async function fetchFile(path: string, opts: FetchFileOptions): Promise<FetchedFile> {
  const headers: Record<string, string> = {};
  if (opts.accept) headers.accept = opts.accept;
  const token = getSession()?.token;
  if (token) headers.authorization = `Bearer ${token}`;
  const qs = opts.query ? `?${new URLSearchParams(opts.query).toString()}` : '';
  const res = await fetch(`/api${path}${qs}`, { headers, signal: opts.signal });
  if (!res.ok) {
    const message = serverMessageOf(await res.text().catch(() => ''));
    if (res.status === 401 && token) notifyUnauthorized();
    throw new ApiError(res.status, message);
  }
  const filename = downloadName(res.headers.get('content-disposition'), opts.fallbackName);
  const type = res.headers.get('content-type') ?? '';
  const { onProgress } = opts;
  if (!onProgress || !res.body) return { blob: await res.blob(), filename };

  const reader = res.body.getReader();
  const chunks: BlobPart[] = [];
  let received = 0;
  let reportedAt = 0;
  onProgress(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    const now = Date.now();
    if (now - reportedAt >= PROGRESS_EVERY_MS) {
      reportedAt = now;
      onProgress(received);
    }
  }
  onProgress(received);
  return { blob: new Blob(chunks, { type }), filename };
}

/** Hands the file to the browser through a temporary <a download>. */
export function saveFile({ blob, filename }: FetchedFile): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { getSession } from '../../../lib/auth-store';
import {
  EXPORT_FAILED,
  filenameFromContentDisposition,
  historyParams,
  type HistoryFilterValues,
} from '../history-data';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PROGRESS_EVERY_MS = 100;

export interface ExportedFile {
  blob: Blob;
  filename: string;
}

/**
 * GET /api/credits/history/export: the filtered rows as .xlsx. A raw fetch, since api() parses
 * JSON; `onProgress` gets the bytes received so far (only when the response has a body).
 */
export async function exportHistory(
  filters: HistoryFilterValues,
  onProgress: (bytes: number) => void,
  signal?: AbortSignal,
): Promise<ExportedFile> {
  const headers: Record<string, string> = { accept: `${XLSX_TYPE}, application/json` };
  const token = getSession()?.token;
  if (token) headers.authorization = `Bearer ${token}`;
  const qs = new URLSearchParams(historyParams(filters, new Date().getTimezoneOffset()));
  const res = await fetch(`/api/credits/history/export?${qs.toString()}`, { headers, signal });
  if (!res.ok) throw new ApiError(res.status, await readMessage(res));

  const type = res.headers.get('content-type') ?? XLSX_TYPE;
  const filename = filenameFromContentDisposition(res.headers.get('content-disposition'));
  if (!res.body) return { blob: await res.blob(), filename };

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

async function readMessage(res: Response): Promise<string | undefined> {
  try {
    const data: unknown = JSON.parse(await res.text());
    return data && typeof data === 'object' && 'message' in data && typeof data.message === 'string'
      ? data.message
      : undefined;
  } catch {
    return undefined;
  }
}

/** Hands the file to the browser through a temporary <a download>. */
export function saveFile({ blob, filename }: ExportedFile): void {
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

export interface ExportState {
  busy: boolean;
  /** Bytes received so far; null until the body starts arriving. */
  bytes: number | null;
  error: string | null;
}

const IDLE: ExportState = { busy: false, bytes: null, error: null };

/** Runs one export at a time; leaving the screen aborts it. */
export function useExportHistory() {
  const [state, setState] = useState<ExportState>(IDLE);
  const running = useRef<AbortController | null>(null);
  useEffect(() => () => running.current?.abort(), []);

  const start = useCallback(async (filters: HistoryFilterValues) => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setState({ busy: true, bytes: null, error: null });
    try {
      const file = await exportHistory(
        filters,
        (bytes) => setState((s) => ({ ...s, bytes })),
        controller.signal,
      );
      saveFile(file);
      setState(IDLE);
    } catch (err) {
      if (controller.signal.aborted) return;
      setState({ busy: false, bytes: null, error: errorMessage(err, EXPORT_FAILED) });
    } finally {
      if (running.current === controller) running.current = null;
    }
  }, []);

  const dismiss = useCallback(() => setState((s) => ({ ...s, error: null })), []);
  return { ...state, start, dismiss };
}

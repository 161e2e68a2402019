import { useCallback, useEffect, useRef, useState } from 'react';
import { ui, type BackupDownloadReply, type BackupProgress } from '@herald/contract';
import { api, errorMessage } from '../../lib/api-client';
import { fetchFile, saveFile, type FetchedFile } from '../../lib/download';

export const BACKUP_FALLBACK_FILENAME = 'backup.xlsx';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const POLL_MS = 300;

/** POST /api/backup/generate-download (Admin): starts the build; where to poll and fetch it. */
export function generateBackup(): Promise<BackupDownloadReply> {
  return api<BackupDownloadReply>('/backup/generate-download', { method: 'POST' });
}

/** The server answers URLs under /api; the fetch helpers add that prefix themselves. */
const underApi = (url: string) => url.replace(/^\/api(?=\/)/, '');

export function getBackupProgress(url: string, signal?: AbortSignal): Promise<BackupProgress> {
  return api<BackupProgress>(underApi(url), { signal });
}

/** The blob GET of downloadUrl, with the bytes received so far. */
export function fetchBackup(
  url: string,
  onProgress: (bytes: number) => void,
  signal?: AbortSignal,
): Promise<FetchedFile> {
  return fetchFile(underApi(url), {
    fallbackName: BACKUP_FALLBACK_FILENAME,
    accept: `${XLSX_TYPE}, application/json`,
    signal,
    onProgress,
  });
}

export interface BackupDownloadState {
  phase: 'idle' | 'building' | 'downloading';
  rows: number;
  totalRows: number;
  bytes: number;
  error: string | null;
  success: string | null;
}

const IDLE: BackupDownloadState = {
  phase: 'idle',
  rows: 0,
  totalRows: 0,
  bytes: 0,
  error: null,
  success: null,
};

/** Resolves after `ms`, or at once when `signal` aborts. */
export const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  });

/**
 * The full backup download: POST, then the build's progress polled until it is ready, then the
 * file fetched and saved as an Excel file. Leaving the screen aborts it.
 */
export function useBackupDownload() {
  const [state, setState] = useState<BackupDownloadState>(IDLE);
  const running = useRef<AbortController | null>(null);
  useEffect(() => () => running.current?.abort(), []);

  const start = useCallback(async () => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    const { signal } = controller;
    setState({ ...IDLE, phase: 'building' });
    try {
      const { downloadUrl, progressUrl } = await generateBackup();
      for (;;) {
        const p = await getBackupProgress(progressUrl, signal);
        if (signal.aborted) return;
        if (p.state === 'failed') throw new Error('backup build failed');
        setState((s) => ({ ...s, rows: p.rows, totalRows: p.totalRows }));
        if (p.state === 'ready') break;
        await wait(POLL_MS, signal);
      }
      setState((s) => ({ ...s, phase: 'downloading', success: ui.backup.fileCreated }));
      const file = await fetchBackup(
        downloadUrl,
        (bytes) => setState((s) => ({ ...s, bytes })),
        signal,
      );
      saveFile(file);
      setState({ ...IDLE, success: ui.backup.downloaded });
    } catch (err) {
      if (signal.aborted) return;
      setState({ ...IDLE, error: errorMessage(err, ui.backup.downloadFailed) });
    } finally {
      if (running.current === controller) running.current = null;
    }
  }, []);

  const dismiss = useCallback(() => setState((s) => ({ ...s, error: null, success: null })), []);
  return { ...state, start, dismiss };
}

import { useCallback, useEffect, useRef, useState } from 'react';
import { ui } from '@herald/contract';
import { errorMessage } from '../../lib/api-client';
import { fetchFile, saveFile, type FetchedFile } from '../../lib/download';
import { historyParams, type HistoryFilterValues } from './get-history';

/** The name saved when the server sends no Content-Disposition. */
export const EXPORT_FALLBACK_FILENAME = 'transaction-history.xlsx';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * GET /api/credits/history/export: the filtered rows as .xlsx; `onProgress` gets the bytes
 * received so far (only when the response has a body).
 */
export function exportHistory(
  filters: HistoryFilterValues,
  onProgress: (bytes: number) => void,
  signal?: AbortSignal,
): Promise<FetchedFile> {
  return fetchFile('/credits/history/export', {
    fallbackName: EXPORT_FALLBACK_FILENAME,
    query: historyParams(filters, new Date().getTimezoneOffset()),
    accept: `${XLSX_TYPE}, application/json`,
    signal,
    onProgress,
  });
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
      setState({ busy: false, bytes: null, error: errorMessage(err, ui.history.exportFailed) });
    } finally {
      if (running.current === controller) running.current = null;
    }
  }, []);

  const dismiss = useCallback(() => setState((s) => ({ ...s, error: null })), []);
  return { ...state, start, dismiss };
}

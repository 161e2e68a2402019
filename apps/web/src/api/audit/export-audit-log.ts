import { useCallback, useEffect, useRef, useState } from 'react';
import { auditUi } from '@herald/contract';
import { errorMessage } from '../../lib/api-client';
import { fetchFile, saveFile } from '../../lib/download';
import { auditParams, type AuditFilterValues } from './get-audit-log';

export const AUDIT_EXPORT_FALLBACK_FILENAME = 'audit-log.csv';

export interface AuditExportState {
  busy: boolean;
  error: string | null;
}

const IDLE: AuditExportState = { busy: false, error: null };

/** GET /api/audit-log/export, one at a time; leaving the screen aborts it. */
export function useExportAuditLog() {
  const [state, setState] = useState<AuditExportState>(IDLE);
  const running = useRef<AbortController | null>(null);
  useEffect(() => () => running.current?.abort(), []);

  const start = useCallback(async (filters: AuditFilterValues) => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setState({ busy: true, error: null });
    try {
      const file = await fetchFile('/audit-log/export', {
        fallbackName: AUDIT_EXPORT_FALLBACK_FILENAME,
        query: auditParams(filters),
        accept: 'text/csv, application/json',
        signal: controller.signal,
      });
      saveFile(file);
      setState(IDLE);
    } catch (err) {
      if (controller.signal.aborted) return;
      setState({ busy: false, error: errorMessage(err, auditUi.exportFailed) });
    } finally {
      if (running.current === controller) running.current = null;
    }
  }, []);

  const dismiss = useCallback(() => setState((s) => ({ ...s, error: null })), []);
  return { ...state, start, dismiss };
}

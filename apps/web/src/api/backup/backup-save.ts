import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ui, type BackupSave, type CurrentBackupSave } from '@herald/contract';
import { api, errorMessage } from '../../lib/api-client';
import { IDLE_SAVE, saveRunning, viewOfSave, type BackupSaveView } from './backup-save-logic';
import { wait } from './backup-download';
import { backupRootKey } from './saved-backups';

const POLL_MS = 500;
/** Answers in a row that may fail before the screen gives up following a save. */
const MAX_MISSES = 10;
const SAVE_URL = '/backup/save-to-server';

/** POST /api/backup/save-to-server (Admin): queues the save; 409 while another one runs. */
export function startBackupSave(): Promise<BackupSave> {
  return api<BackupSave>(SAVE_URL, { method: 'POST' });
}

/** GET /api/backup/save-to-server/{id}: the save's state, from any instance. */
export function getBackupSave(id: string, signal?: AbortSignal): Promise<BackupSave> {
  return api<BackupSave>(`${SAVE_URL}/${encodeURIComponent(id)}`, { signal });
}

/** GET /api/backup/save-to-server: the save queued or building, if any. */
export function getCurrentBackupSave(signal?: AbortSignal): Promise<CurrentBackupSave> {
  return api<CurrentBackupSave>(SAVE_URL, { signal });
}

/**
 * "Save backup to server": the save runs on the server's job runner, so the screen queues it,
 * then asks how it goes until it is done (then the saved list is fetched again) or failed. A
 * screen opened (or reloaded) while a save runs follows that save. Leaving the screen stops
 * the asking, never the save.
 */
export function useBackupSave() {
  const queryClient = useQueryClient();
  const [view, setView] = useState<BackupSaveView>(IDLE_SAVE);
  const running = useRef<AbortController | null>(null);

  /** A fresh run of asking; the one before stops. */
  const begin = useCallback(() => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    return controller.signal;
  }, []);

  const follow = useCallback(
    async (first: BackupSave, signal: AbortSignal) => {
      let save = first;
      let misses = 0;
      setView(viewOfSave(save));
      while (saveRunning(save)) {
        await wait(POLL_MS, signal);
        if (signal.aborted) return;
        try {
          save = await getBackupSave(save.id, signal);
          misses = 0;
        } catch (err) {
          // A lost answer (a deploy, a flaky link) is asked again: the save itself goes on.
          if (signal.aborted || ++misses >= MAX_MISSES) throw err;
          continue;
        }
        if (signal.aborted) return;
        setView(viewOfSave(save));
      }
      if (save.state === 'done') await queryClient.invalidateQueries({ queryKey: backupRootKey });
    },
    [queryClient],
  );

  useEffect(() => {
    const signal = begin();
    // A look for a save already running (a reloaded screen): a failed look says nothing, as
    // the Admin asked for nothing; a save found is followed like one started here.
    getCurrentBackupSave(signal).then(
      ({ save }) => {
        if (!save || signal.aborted) return;
        follow(save, signal).catch((err: unknown) => {
          if (!signal.aborted)
            setView({ ...IDLE_SAVE, error: errorMessage(err, ui.backup.saveFailed) });
        });
      },
      () => undefined,
    );
    return () => running.current?.abort();
  }, [begin, follow]);

  const start = useCallback(async () => {
    const signal = begin();
    setView({ ...IDLE_SAVE, phase: 'queued' });
    try {
      await follow(await startBackupSave(), signal);
    } catch (err) {
      if (signal.aborted) return;
      setView({ ...IDLE_SAVE, error: errorMessage(err, ui.backup.saveFailed) });
    }
  }, [begin, follow]);

  const dismiss = useCallback(() => setView((v) => ({ ...v, error: null, success: null })), []);
  return { ...view, start, dismiss };
}

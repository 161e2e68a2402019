import { ui, type BackupSave } from '@herald/contract';

/** What the Backup screen shows of a save to the server (backup-save.ts). */
export interface BackupSaveView {
  /** idle: no save running (a finished one leaves its message). */
  phase: 'idle' | 'queued' | 'building';
  rows: number;
  totalRows: number;
  error: string | null;
  success: string | null;
}

export const IDLE_SAVE: BackupSaveView = {
  phase: 'idle',
  rows: 0,
  totalRows: 0,
  error: null,
  success: null,
};

/** The view of a save as the server answers it: progress while it runs, then its message. */
export function viewOfSave(save: BackupSave): BackupSaveView {
  switch (save.state) {
    case 'queued':
    case 'building':
      return { ...IDLE_SAVE, phase: save.state, rows: save.rows, totalRows: save.totalRows };
    case 'done':
      return { ...IDLE_SAVE, success: save.message ?? ui.backup.saveFailed };
    case 'failed':
      return { ...IDLE_SAVE, error: save.message ?? ui.backup.saveFailed };
  }
}

/** Whether the screen should ask about the save again. */
export const saveRunning = (save: BackupSave) =>
  save.state === 'queued' || save.state === 'building';

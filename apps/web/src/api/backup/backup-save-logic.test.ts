import { describe, expect, it } from 'vitest';
import { server as msg, ui, type BackupSave } from '@herald/contract';
import { IDLE_SAVE, saveRunning, viewOfSave } from './backup-save-logic';

const save = (over: Partial<BackupSave>): BackupSave => ({
  id: 'x'.repeat(32),
  state: 'queued',
  rows: 0,
  totalRows: 0,
  name: null,
  message: null,
  ...over,
});

describe('viewOfSave', () => {
  it('shows progress while queued or building', () => {
    expect(viewOfSave(save({}))).toEqual({ ...IDLE_SAVE, phase: 'queued' });
    expect(viewOfSave(save({ state: 'building', rows: 40, totalRows: 100 }))).toEqual({
      ...IDLE_SAVE,
      phase: 'building',
      rows: 40,
      totalRows: 100,
    });
    expect(saveRunning(save({}))).toBe(true);
    expect(saveRunning(save({ state: 'building' }))).toBe(true);
  });

  it("then the server's message: the saved file's name, or why it failed", () => {
    const name = 'backup-20260101T000000000Z.xlsx';
    const done = save({ state: 'done', name, message: msg.backupSaved(name) });
    expect(viewOfSave(done)).toEqual({ ...IDLE_SAVE, success: msg.backupSaved(name) });
    const failed = save({ state: 'failed', message: msg.backupFailed });
    expect(viewOfSave(failed)).toEqual({ ...IDLE_SAVE, error: msg.backupFailed });
    expect(viewOfSave(save({ state: 'failed' })).error).toBe(ui.backup.saveFailed);
    expect(saveRunning(done)).toBe(false);
    expect(saveRunning(failed)).toBe(false);
  });
});

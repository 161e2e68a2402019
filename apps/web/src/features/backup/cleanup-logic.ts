import { ui, type CleanupDataType } from '@herald/contract';

export interface CleanupValues {
  dataType: CleanupDataType;
  fromDate: string;
  toDate: string;
}

/** The screen's check before the confirm dialog: both dates, else its message. */
export function cleanupError(v: CleanupValues): string | null {
  if (!v.fromDate || !v.toDate) return ui.backup.cleanupDatesRequired;
  return null;
}

/** The confirm dialog's question, with the chosen type and range. */
export function confirmText(v: CleanupValues): string {
  return ui.backup.confirmText(ui.backup.dataTypes[v.dataType].toLowerCase(), v.fromDate, v.toDate);
}

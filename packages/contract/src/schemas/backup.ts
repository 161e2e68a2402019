import { z } from 'zod';
import { server as msg } from '../server-messages.js';

/** Backup & Data Management and Storage Management (docs/product.md, Backup and storage). */

/** POST /api/backup/generate-download: where the file will be, and where its progress is. */
export const BackupDownloadReplySchema = z.object({
  /** GET it (Admin) for the .xlsx; it waits until the file is built. */
  downloadUrl: z.string(),
  /** GET it (Admin) for the build's progress while the screen waits. */
  progressUrl: z.string(),
});
export type BackupDownloadReply = z.infer<typeof BackupDownloadReplySchema>;

export const BackupBuildStates = ['building', 'ready', 'failed'] as const;
export type BackupBuildState = (typeof BackupBuildStates)[number];
export const BackupProgressSchema = z.object({
  state: z.enum(BackupBuildStates),
  /** Rows written so far. */
  rows: z.number(),
  /** Rows expected (estimates for big tables): the bar's 100%. */
  totalRows: z.number(),
});
export type BackupProgress = z.infer<typeof BackupProgressSchema>;

export const BackupIdParamsSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{20,64}$/, msg.notFound),
});

/**
 * "Save backup to server" runs on the job runner: POST /api/backup/save-to-server answers 202
 * with the save as it is queued, GET /api/backup/save-to-server/{id} its state, and GET
 * /api/backup/save-to-server the save queued or building, if any (a screen reloaded mid-save).
 */
export const BackupSaveStates = ['queued', 'building', 'done', 'failed'] as const;
export type BackupSaveState = (typeof BackupSaveStates)[number];
export const BackupSaveSchema = z.object({
  id: z.string(),
  state: z.enum(BackupSaveStates),
  /** Rows written so far. */
  rows: z.number(),
  /** Rows expected (estimates for big tables); 0 until the build starts. */
  totalRows: z.number(),
  /** The saved file's name, once done. */
  name: z.string().nullable(),
  /** Done: the success text naming the file; failed: why; otherwise null. */
  message: z.string().nullable(),
});
export type BackupSave = z.infer<typeof BackupSaveSchema>;
export const CurrentBackupSaveSchema = z.object({ save: BackupSaveSchema.nullable() });
export type CurrentBackupSave = z.infer<typeof CurrentBackupSaveSchema>;

/** A backup saved under DATA_DIR/backups/: its file name, size in bytes and time. */
export const SavedBackupSchema = z.object({
  name: z.string(),
  size: z.number(),
  createdAt: z.string(),
});
export type SavedBackup = z.infer<typeof SavedBackupSchema>;
export const SavedBackupListSchema = z.object({ backups: z.array(SavedBackupSchema) });
export type SavedBackupList = z.infer<typeof SavedBackupListSchema>;

export const SAVED_BACKUP_NAME = /^backup-\d{8}T\d{6}(?:\d{3})?Z(?:-[a-z]+)?\.xlsx$/;
export const SavedBackupParamsSchema = z.object({
  name: z.string().regex(SAVED_BACKUP_NAME, msg.notFound),
});

export const CleanupDataTypes = ['campaigns', 'users', 'transactions'] as const;
/**
 * The word the Admin types to confirm a cleanup; the server requires it in the body too, so no
 * client (a script, a replayed request) deletes data without it.
 */
export const CLEANUP_CONFIRM_WORD = 'DELETE';
export type CleanupDataType = (typeof CleanupDataTypes)[number];

const optionalDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, msg.invalidInput)
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), msg.invalidInput)
  .optional()
  .or(z.literal('').transform(() => undefined));

/** DELETE /api/data/cleanup: both dates required, inclusive local days. */
export const CleanupBodySchema = z.preprocess(
  (v) => v ?? {},
  z
    .object({
      dataType: z.enum(CleanupDataTypes, msg.cleanupDataTypeInvalid),
      confirm: z.literal(CLEANUP_CONFIRM_WORD, msg.cleanupConfirmRequired),
      fromDate: optionalDay,
      toDate: optionalDay,
      /** Minutes behind UTC of the Admin's browser (Date#getTimezoneOffset); 0 when absent. */
      tzOffset: z.coerce.number().int().min(-840).max(840).optional(),
    })
    .superRefine((b, ctx) => {
      if (!b.fromDate || !b.toDate) {
        ctx.addIssue({ code: 'custom', message: msg.cleanupDatesRequired, path: ['fromDate'] });
      } else if (b.fromDate > b.toDate) {
        ctx.addIssue({ code: 'custom', message: msg.cleanupRangeInvalid, path: ['toDate'] });
      }
    }),
);
export type CleanupBody = z.input<typeof CleanupBodySchema>;

export const CleanupReplySchema = z.object({
  message: z.string(),
  /** The backup saved before the delete. */
  backup: z.string(),
  deleted: z.number(),
});
export type CleanupReply = z.infer<typeof CleanupReplySchema>;

/** GET /api/admin/storage-usage . */
export const StorageUsageSchema = z.object({
  fileStorage: z.object({ megabytes: z.number() }),
  databaseStorage: z.object({
    megabytes: z.number(),
    collections: z.array(z.object({ name: z.string(), count: z.number() })),
  }),
});
export type StorageUsage = z.infer<typeof StorageUsageSchema>;

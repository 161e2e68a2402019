import { createReadStream } from 'node:fs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BackupDownloadReplySchema,
  BackupIdParamsSchema,
  BackupProgressSchema,
  CleanupBodySchema,
  CleanupReplySchema,
  MessageSchema,
  SavedBackupListSchema,
  SavedBackupParamsSchema,
  StorageUsageSchema,
  server as msg,
} from '@herald/contract';
import { AppError, notFound } from '../../lib/app-error.js';
import { caller } from '../../plugins/auth.js';
import { findDownload, progressOf, startDownload, waitForDownload } from './backup-downloads.js';
import { listBackups, savedBackupPath } from './backup-store.js';
import { saveManualBackup } from './manual-backup.js';
import { cleanup } from './cleanup.service.js';
import { storageUsage } from './storage.service.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const ADMIN = { roles: ['Admin'] } as const;
/** Downloads read a backup file in chunks this big (fewer reads and writes than 64 KiB). */
const DOWNLOAD_CHUNK = 1024 * 1024;

/**
 * Backup & Data Management and Storage Management (docs/product.md, Backup and storage): Admin
 * only; every other role gets 403 on every route. Files go out as attachments with nosniff.
 */
export const backupRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.post(
    '/backup/generate-download',
    { config: ADMIN, schema: { response: { 200: BackupDownloadReplySchema } } },
    async () => {
      const build = await startDownload(ctx);
      const base = `/api/backup/downloads/${build.id}`;
      return { downloadUrl: base, progressUrl: `${base}/progress` };
    },
  );

  app.get(
    '/backup/downloads/:id/progress',
    {
      config: ADMIN,
      schema: { params: BackupIdParamsSchema, response: { 200: BackupProgressSchema } },
    },
    async (req) => {
      const build = await findDownload(ctx, req.params.id);
      if (!build) throw notFound(msg.backupNotFound);
      return progressOf(build);
    },
  );

  app.get(
    '/backup/downloads/:id',
    { config: ADMIN, schema: { params: BackupIdParamsSchema } },
    async (req, reply) => {
      const build = await waitForDownload(ctx, req.params.id);
      if (!build) throw notFound(msg.backupNotFound);
      if (build.state !== 'ready') throw new AppError(500, msg.backupFailed);
      return reply
        .header('content-type', XLSX)
        .header('content-disposition', `attachment; filename="${build.filename}"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .send(createReadStream(build.file, { highWaterMark: DOWNLOAD_CHUNK }));
    },
  );

  app.post(
    '/backup/save-to-server',
    { config: ADMIN, schema: { response: { 200: MessageSchema } } },
    async () => ({ message: msg.backupSaved(await saveManualBackup(ctx)) }),
  );

  app.get(
    '/backup/saved',
    { config: ADMIN, schema: { response: { 200: SavedBackupListSchema } } },
    async () => ({ backups: await listBackups(ctx) }),
  );

  app.get(
    '/backup/saved/:name',
    { config: ADMIN, schema: { params: SavedBackupParamsSchema } },
    async (req, reply) => {
      const file = await savedBackupPath(ctx, req.params.name);
      if (!file) throw notFound(msg.backupNotFound);
      return reply
        .header('content-type', XLSX)
        .header('content-disposition', `attachment; filename="${req.params.name}"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .send(createReadStream(file, { highWaterMark: DOWNLOAD_CHUNK }));
    },
  );

  app.delete(
    '/data/cleanup',
    { config: ADMIN, schema: { body: CleanupBodySchema, response: { 200: CleanupReplySchema } } },
    async (req) => cleanup(ctx, caller(req), req.body),
  );

  app.get(
    '/admin/storage-usage',
    { config: ADMIN, schema: { response: { 200: StorageUsageSchema } } },
    async () => storageUsage(ctx),
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BackupDownloadReplySchema,
  BackupIdParamsSchema,
  BackupProgressSchema,
  BackupSaveSchema,
  CleanupBodySchema,
  CleanupReplySchema,
  CurrentBackupSaveSchema,
  SavedBackupListSchema,
  SavedBackupParamsSchema,
  StorageUsageSchema,
  server as msg,
} from '@herald/contract';
import type { FastifyReply } from 'fastify';
import { AppError, notFound } from '../../lib/app-error.js';
import { openStoredFile } from '../../lib/file-response.js';
import type { OpenedObject } from '../../lib/storage/file-store.js';
import { caller } from '../../plugins/auth.js';
import { requestActor } from '../audit/index.js';
import { recordBackupDownload } from './backup-audit.js';
import { findDownload, progressOf, startDownload, waitForDownload } from './backup-downloads.js';
import { listBackups, savedBackupKey, XLSX_TYPE } from './backup-store.js';
import { currentSave, findSave, startSave } from './manual-backup.js';
import { cleanup } from './cleanup.service.js';
import { storageUsage } from './storage.service.js';

const ADMIN = { roles: ['Admin'] } as const;

/** Streams a workbook from the store as an attachment, its length from the store. */
function sendWorkbook(reply: FastifyReply, opened: OpenedObject, filename: string) {
  return reply
    .header('content-type', XLSX_TYPE)
    .header('content-length', String(opened.size))
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(opened.stream);
}

/**
 * Backup & Data Management and Storage Management (docs/product.md, Backup and storage): Admin
 * only; every other role gets 403 on every route. Files go out as attachments with nosniff,
 * streamed from the file store, so any instance serves a backup another one wrote. A build whose
 * row is ready but whose object the store no longer has answers 410; a saved backup has no row,
 * so one the store does not hold is not found (404), as an unknown name always was.
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
      const opened = await openStoredFile(ctx.files, build.key);
      await recordBackupDownload(ctx, requestActor(req), build);
      return sendWorkbook(reply, opened, build.filename);
    },
  );

  // Queued on the job runner: 202 at once, then the screen polls the save by its id.
  app.post(
    '/backup/save-to-server',
    { config: ADMIN, schema: { response: { 202: BackupSaveSchema } } },
    async (req, reply) => reply.code(202).send(await startSave(ctx, requestActor(req))),
  );

  app.get(
    '/backup/save-to-server',
    { config: ADMIN, schema: { response: { 200: CurrentBackupSaveSchema } } },
    async () => ({ save: await currentSave(ctx) }),
  );

  app.get(
    '/backup/save-to-server/:id',
    {
      config: ADMIN,
      schema: { params: BackupIdParamsSchema, response: { 200: BackupSaveSchema } },
    },
    async (req) => {
      const save = await findSave(ctx, req.params.id);
      if (!save) throw notFound(msg.backupNotFound);
      return save;
    },
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
      const key = savedBackupKey(req.params.name);
      const opened = key ? await ctx.files.open(key) : null;
      if (!opened) throw notFound(msg.backupNotFound);
      const backup = { id: req.params.name, filename: req.params.name };
      await recordBackupDownload(ctx, requestActor(req), backup);
      return sendWorkbook(reply, opened, req.params.name);
    },
  );

  app.delete(
    '/data/cleanup',
    { config: ADMIN, schema: { body: CleanupBodySchema, response: { 200: CleanupReplySchema } } },
    async (req) => cleanup(ctx, caller(req), req.body, requestActor(req)),
  );

  app.get(
    '/admin/storage-usage',
    { config: ADMIN, schema: { response: { 200: StorageUsageSchema } } },
    async () => storageUsage(ctx),
  );
};

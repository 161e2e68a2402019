import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminAnnouncementListSchema,
  AnnouncementListQuerySchema,
  AnnouncementListSchema,
  CreateAnnouncementReplySchema,
  IdParamsSchema,
  MessageSchema,
  server as msg,
} from '@herald/contract';
import { withMultipart } from '../../plugins/multipart.js';
import { caller } from '../../plugins/auth.js';
import { readAnnouncementUpload } from './announcements.input.js';
import * as service from './announcements.service.js';

/**
 * Announcements (docs/product.md, Announcements and alerts). Only Admin posts, lists all and
 * deletes; every user reads its own audience's and marks them seen. An announcement outside the
 * caller's audience answers 404.
 */
export const announcementsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  await withMultipart(app, (uploads) => {
    uploads.post(
      '/announcements',
      {
        config: { roles: ['Admin'] },
        schema: { response: { 201: CreateAnnouncementReplySchema } },
      },
      async (req, reply) => {
        const upload = await readAnnouncementUpload(req);
        const announcement = await service.createAnnouncement(ctx, caller(req), upload);
        return reply.code(201).send({ message: msg.announcementCreated, announcement });
      },
    );
  });

  app.get(
    '/announcements',
    {
      schema: {
        querystring: AnnouncementListQuerySchema,
        response: { 200: AnnouncementListSchema },
      },
    },
    (req) => service.listMine(ctx, caller(req), req.query),
  );

  app.get(
    '/announcements/history',
    {
      schema: {
        querystring: AnnouncementListQuerySchema,
        response: { 200: AnnouncementListSchema },
      },
    },
    (req) => service.listHistory(ctx, caller(req), req.query),
  );

  app.get(
    '/announcements/all',
    {
      config: { roles: ['Admin'] },
      schema: {
        querystring: AnnouncementListQuerySchema,
        response: { 200: AdminAnnouncementListSchema },
      },
    },
    (req) => service.listAll(ctx, req.query),
  );

  app.delete(
    '/announcements/:id',
    {
      config: { roles: ['Admin'] },
      schema: { params: IdParamsSchema, response: { 200: MessageSchema } },
    },
    async (req) => {
      await service.deleteAnnouncement(ctx, req.params.id);
      return { message: msg.announcementDeleted };
    },
  );

  app.put('/announcements/:id/seen', { schema: { params: IdParamsSchema } }, async (req, reply) => {
    await service.markSeen(ctx, caller(req), req.params.id);
    return reply.code(204).send();
  });
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AssignTicketBodySchema,
  IdParamsSchema,
  RATE_LIMITS,
  ReplyTicketBodySchema,
  TicketAttachmentParamsSchema,
  TicketDetailSchema,
  TicketListQuerySchema,
  TicketListSchema,
  TicketRepliesPageSchema,
  TicketRepliesQuerySchema,
  TicketReplyBodySchema,
  UpdateTicketStatusBodySchema,
  server as msg,
} from '@herald/contract';
import { withMultipart } from '../../plugins/multipart.js';
import { caller } from '../../plugins/auth.js';
import { sendStoredFile } from '../../lib/file-response.js';
import { TICKETS_FOLDER, discardAttachments } from './ticket-files.js';
import { readTicketUpload } from './tickets.input.js';
import * as service from './tickets.service.js';

export const ticketCreateLimitKey = (userId: string) => `ticket-create:user:${userId}`;
export const ticketReplyLimitKey = (userId: string) => `ticket-reply:user:${userId}`;

/**
 * Support tickets (docs/product.md, Tickets). Every role opens tickets and sees
 * them by the ticket scope; only Admin sets the status or assigns; only the assigned Reseller
 * escalates. Ids outside the caller's scope answer 404.
 */
export const ticketsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  await withMultipart(app, (uploads) => {
    uploads.post(
      '/tickets',
      { schema: { response: { 201: TicketReplyBodySchema } } },
      async (req, reply) => {
        const actor = caller(req);
        // Counted before a byte of the upload is read (429 with Retry-After past the limit).
        await ctx.rateLimiter.consume([
          [ticketCreateLimitKey(actor.id), RATE_LIMITS.ticketCreatePerUser],
        ]);
        const upload = await readTicketUpload(req, ctx.stagingDir);
        try {
          const ticket = await service.createTicket(ctx, actor, upload);
          return await reply.code(201).send({ message: msg.ticketCreated, ticket });
        } catch (err) {
          await discardAttachments(ctx.files, upload.files);
          throw err;
        }
      },
    );
  });

  app.get(
    '/tickets',
    { schema: { querystring: TicketListQuerySchema, response: { 200: TicketListSchema } } },
    (req) => service.listTickets(ctx, caller(req), req.query),
  );

  app.get(
    '/tickets/:id',
    { schema: { params: IdParamsSchema, response: { 200: TicketDetailSchema } } },
    (req) => service.getTicketDetail(ctx, caller(req), req.params.id),
  );

  // The detail carries the newest replies; older pages by the cursor it gave (400 when malformed).
  app.get(
    '/tickets/:id/replies',
    {
      schema: {
        params: IdParamsSchema,
        querystring: TicketRepliesQuerySchema,
        response: { 200: TicketRepliesPageSchema },
      },
    },
    (req) => service.getEarlierReplies(ctx, caller(req), req.params.id, req.query.before),
  );

  app.put(
    '/tickets/:id/reply',
    {
      schema: {
        params: IdParamsSchema,
        body: ReplyTicketBodySchema,
        response: { 200: TicketDetailSchema },
      },
    },
    async (req) => {
      const actor = caller(req);
      // Each reply notifies the Admins and the chain: a flood is refused with 429 first.
      await ctx.rateLimiter.consume([
        [ticketReplyLimitKey(actor.id), RATE_LIMITS.ticketReplyPerUser],
      ]);
      return service.replyToTicket(ctx, actor, req.params.id, req.body.message);
    },
  );

  app.put(
    '/tickets/:id/escalate',
    {
      config: { roles: ['Reseller'] },
      schema: { params: IdParamsSchema, response: { 200: TicketDetailSchema } },
    },
    (req) => service.escalateTicket(ctx, caller(req), req.params.id),
  );

  app.put(
    '/tickets/:id/status',
    {
      config: { roles: ['Admin'] },
      schema: {
        params: IdParamsSchema,
        body: UpdateTicketStatusBodySchema,
        response: { 200: TicketDetailSchema },
      },
    },
    (req) => service.setTicketStatus(ctx, caller(req), req.params.id, req.body.status),
  );

  app.put(
    '/tickets/:id/assign',
    {
      config: { roles: ['Admin'] },
      schema: {
        params: IdParamsSchema,
        body: AssignTicketBodySchema,
        response: { 200: TicketDetailSchema },
      },
    },
    (req) => service.assignTicket(ctx, caller(req), req.params.id, req.body.assignee),
  );

  app.get(
    '/tickets/:id/attachments/:attachmentId',
    { schema: { params: TicketAttachmentParamsSchema } },
    async (req, reply) => {
      const { id, attachmentId } = req.params;
      const file = await service.attachmentForDownload(ctx, caller(req), id, attachmentId);
      return sendStoredFile(reply, ctx.files, TICKETS_FOLDER, file);
    },
  );
};

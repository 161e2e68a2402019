import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParamsSchema, MessageSchema } from '@herald/contract';
import { caller } from '../../../plugins/auth.js';
import { requestActor } from '../../audit/index.js';
import { pauseDispatch, resumeDispatch } from './dispatch-control.service.js';

const ADMIN = { roles: ['Admin'] } as const;

/**
 * Pause and resume of a campaign's sending, Admin only. Cancel is the campaign's
 * Change Status to Cancelled (campaign-status.service.ts), which stops the engine the same way.
 */
export const dispatchControlRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const schema = { params: IdParamsSchema, response: { 200: MessageSchema } };

  app.post('/campaigns/:id/delivery/pause', { config: ADMIN, schema }, (req) =>
    pauseDispatch(ctx, caller(req), requestActor(req), req.params.id),
  );
  app.post('/campaigns/:id/delivery/resume', { config: ADMIN, schema }, (req) =>
    resumeDispatch(ctx, caller(req), requestActor(req), req.params.id),
  );
};

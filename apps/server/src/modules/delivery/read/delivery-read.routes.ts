import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DeliveryBreakdownSchema, IdParamsSchema } from '@herald/contract';
import { caller } from '../../../plugins/auth.js';
import { campaignDelivery } from './delivery-read.service.js';

/** A campaign's delivery breakdown: every role, within its scope. */
export const deliveryReadRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/campaigns/:id/delivery',
    { schema: { params: IdParamsSchema, response: { 200: DeliveryBreakdownSchema } } },
    (req) => campaignDelivery(app.ctx, caller(req), req.params.id),
  );
};

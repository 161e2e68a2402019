import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BALANCES_NEXT_CURSOR_HEADER,
  BalancesQuerySchema,
  BalancesSchema,
  CreateCreditBodySchema,
  CreateCreditReplySchema,
  CreditListQuerySchema,
  CreditTransactionListSchema,
  CreditUserParamsSchema,
  MANAGER_ROLES,
} from '@herald/contract';
import { caller } from '../../plugins/auth.js';
import { requestActor } from '../audit/index.js';
import * as service from './credits.service.js';
import { idempotencyKeyOf, runIdempotent } from '../../plugins/idempotency.js';

/** Credit management and the ledger's plain reads (docs/product.md, Credits and the ledger). */
export const creditsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.get(
    '/credits',
    {
      schema: {
        querystring: CreditListQuerySchema,
        response: { 200: CreditTransactionListSchema },
      },
    },
    (req) => service.listCredits(ctx, caller(req), req.query),
  );

  app.post(
    '/credits',
    {
      config: { roles: MANAGER_ROLES },
      schema: { body: CreateCreditBodySchema, response: { 201: CreateCreditReplySchema } },
    },
    async (req, reply) => {
      const actor = caller(req);
      const result = await runIdempotent(
        ctx.db,
        {
          userId: actor.id,
          key: idempotencyKeyOf(req),
          endpoint: 'POST /api/credits',
          status: 201,
          request: req.body,
          replySchema: CreateCreditReplySchema,
        },
        (tx) => service.createCredit(tx, actor, requestActor(req), req.body),
      );
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(result.status).send(result.body);
    },
  );

  app.get(
    '/credits/balances',
    { schema: { querystring: BalancesQuerySchema, response: { 200: BalancesSchema } } },
    async (req, reply) => {
      const page = await service.balances(ctx, caller(req), req.query);
      // The next page's cursor cannot live in the map, whose every key is an email; it is
      // percent-encoded, as a header holds no character past Latin-1.
      if (page.nextCursor !== null) {
        reply.header(BALANCES_NEXT_CURSOR_HEADER, encodeURIComponent(page.nextCursor));
      }
      return page.balances;
    },
  );

  app.get(
    '/credits/user/:email',
    {
      schema: {
        params: CreditUserParamsSchema,
        querystring: CreditListQuerySchema,
        response: { 200: CreditTransactionListSchema },
      },
    },
    (req) => service.listUserCredits(ctx, caller(req), req.params.email, req.query),
  );
};

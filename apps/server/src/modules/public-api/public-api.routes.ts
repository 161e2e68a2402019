import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AddSuppressionBodySchema,
  AddSuppressionReplySchema,
  CampaignRecipientsQuerySchema,
  CreditListQuerySchema,
  IdParamsSchema,
  MAX_RECIPIENTS,
  MessageSchema,
  PUBLIC_ERROR_RESPONSES,
  PublicBalancesSchema,
  PublicCampaignListQuerySchema,
  PublicCampaignPageSchema,
  PublicCampaignReplySchema,
  PublicCampaignSchema,
  PublicCreateCampaignReplySchema,
  PublicCreateCampaignSchema,
  PublicLedgerPageSchema,
  PublicRecipientPageSchema,
  PublicSuppressionPageSchema,
  PublicSuppressionParamsSchema,
  SuppressionsQuerySchema,
  server as msg,
  type PublicCreateCampaignFields,
} from '@herald/contract';
import type { FastifyReply } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import { requestActor } from '../audit/index.js';
import { caller, isTestCaller } from '../../plugins/auth.js';
import {
  idempotencyKeyOf,
  runIdempotent,
  type IdempotentResult,
} from '../../plugins/idempotency.js';
import { withMultipart } from '../../plugins/multipart.js';
import {
  createCampaign,
  parsedFromJson,
  readCampaignUpload,
} from '../campaigns/campaign-create.service.js';
import * as campaigns from '../campaigns/campaign-public.service.js';
import * as credits from '../credits/credits.service.js';
import * as suppressions from '../suppressions/suppressions.service.js';

/**
 * Room for MAX_RECIPIENTS numbers as a JSON array of strings (up to 15 digits, quotes and a
 * comma each) and the other fields.
 */
const CAMPAIGN_JSON_BYTES = MAX_RECIPIENTS * 20 + 64 * 1024;

const tags = (tag: string) => ({ tags: [tag] });

/** Answers a result of runIdempotent, marking a replay. */
function sendResult<T>(reply: FastifyReply, result: IdempotentResult<T, number>) {
  if (result.replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(result.status).send(result.body);
}

/**
 * The versioned public API (docs/api.md, The v1 API), registered under /api/v1. Its routes
 * call the same services as the web app's, with the same role and scope checks: every role may
 * call every route, and what it sees is its own scope. Every POST honours Idempotency-Key.
 */
export const publicApiRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  await withMultipart(app, (uploads) => {
    uploads.post(
      '/campaigns',
      {
        bodyLimit: CAMPAIGN_JSON_BYTES,
        schema: {
          ...tags('Campaigns'),
          summary: 'Create a campaign',
          description:
            'JSON with a `recipients` array, or the web form as multipart/form-data with media ' +
            'files. A test key’s campaign charges nothing and is sent to the simulator only.',
          // Only the JSON body is validated here; a multipart form is read as it streams.
          body: { content: { 'application/json': { schema: PublicCreateCampaignSchema } } },
          response: { 201: PublicCreateCampaignReplySchema, ...PUBLIC_ERROR_RESPONSES },
        },
      },
      async (req, reply) => {
        const multipart = req.isMultipart();
        // Only a JSON body met the route's schema: any other (none, text) is not a campaign.
        if (!multipart && req.mediaType !== 'application/json') {
          throw new AppError(415, msg.invalidInput);
        }
        const result = await createCampaign(ctx, {
          actor: caller(req),
          audit: requestActor(req),
          key: idempotencyKeyOf(req),
          endpoint: 'POST /api/v1/campaigns',
          test: isTestCaller(req),
          read: () =>
            multipart
              ? readCampaignUpload(req, ctx.stagingDir)
              : // Validated against PublicCreateCampaignSchema by the route's JSON schema.
                parsedFromJson(req.body as PublicCreateCampaignFields),
        });
        return sendResult(reply, result);
      },
    );
  });

  app.get(
    '/campaigns',
    {
      schema: {
        ...tags('Campaigns'),
        summary: 'List campaigns',
        description: 'Newest first, in the caller’s scope; pass `nextCursor` as `cursor`.',
        querystring: PublicCampaignListQuerySchema,
        response: { 200: PublicCampaignPageSchema, ...PUBLIC_ERROR_RESPONSES },
      },
    },
    (req) => campaigns.listCampaignPage(ctx, caller(req), req.query),
  );

  app.get(
    '/campaigns/:id',
    {
      schema: {
        ...tags('Campaigns'),
        summary: 'Get a campaign',
        params: IdParamsSchema,
        response: { 200: PublicCampaignSchema, ...PUBLIC_ERROR_RESPONSES },
      },
    },
    (req) => campaigns.getCampaignWithFiles(ctx, caller(req), req.params.id),
  );

  app.get(
    '/campaigns/:id/recipients',
    {
      schema: {
        ...tags('Campaigns'),
        summary: 'List a campaign’s recipients with their delivery status',
        params: IdParamsSchema,
        querystring: CampaignRecipientsQuerySchema,
        response: { 200: PublicRecipientPageSchema, ...PUBLIC_ERROR_RESPONSES },
      },
    },
    (req) => campaigns.listRecipientStatuses(ctx, caller(req), req.params.id, req.query),
  );

  app.post(
    '/campaigns/:id/cancel',
    {
      schema: {
        ...tags('Campaigns'),
        summary: 'Request a campaign’s cancellation',
        description: 'Cancellation Requested, as the web app’s Request Cancellation.',
        params: IdParamsSchema,
        response: { 200: PublicCampaignReplySchema, ...PUBLIC_ERROR_RESPONSES },
      },
    },
    async (req, reply) => {
      const key = idempotencyKeyOf(req);
      const result = await campaigns.requestCancellation(
        ctx,
        caller(req),
        requestActor(req),
        req.params.id,
        key,
      );
      return sendResult(reply, result);
    },
  );

  app.get(
    '/balances',
    {
      schema: {
        ...tags('Credits'),
        summary: 'The caller’s balances',
        response: { 200: PublicBalancesSchema, ...PUBLIC_ERROR_RESPONSES },
      },
    },
    async (req) => ({ items: await credits.ownBalances(ctx, caller(req)) }),
  );

  app.get(
    '/ledger',
    {
      schema: {
        ...tags('Credits'),
        summary: 'The entries on the caller’s own account',
        querystring: CreditListQuerySchema,
        response: { 200: PublicLedgerPageSchema, ...PUBLIC_ERROR_RESPONSES },
      },
    },
    async (req) => {
      const page = await credits.listOwnCredits(ctx, caller(req), req.query);
      return { items: page.transactions, nextCursor: page.nextCursor };
    },
  );

  app.get(
    '/suppressions',
    {
      schema: {
        ...tags('Suppressions'),
        summary: 'List the suppression list',
        querystring: SuppressionsQuerySchema,
        response: { 200: PublicSuppressionPageSchema, ...PUBLIC_ERROR_RESPONSES },
      },
    },
    async (req) => {
      const page = await suppressions.listSuppressions(ctx.db, caller(req), req.query);
      return { items: page.suppressions, nextCursor: page.nextCursor };
    },
  );

  app.post(
    '/suppressions',
    {
      schema: {
        ...tags('Suppressions'),
        summary: 'Add a number to the caller’s suppression list',
        body: AddSuppressionBodySchema,
        response: { 201: AddSuppressionReplySchema, ...PUBLIC_ERROR_RESPONSES },
      },
    },
    async (req, reply) => {
      const actor = caller(req);
      const result = await runIdempotent(
        ctx.db,
        {
          userId: actor.id,
          key: idempotencyKeyOf(req),
          endpoint: 'POST /api/v1/suppressions',
          status: 201,
          request: req.body,
          replySchema: AddSuppressionReplySchema,
        },
        (tx) => suppressions.addSuppressionIn(tx, actor, requestActor(req), req.body.phone),
      );
      return sendResult(reply, result);
    },
  );

  app.delete(
    '/suppressions/:number',
    {
      schema: {
        ...tags('Suppressions'),
        summary: 'Remove a number from the caller’s suppression list',
        params: PublicSuppressionParamsSchema,
        response: { 200: MessageSchema, ...PUBLIC_ERROR_RESPONSES },
      },
    },
    async (req) => ({
      message: await suppressions.removeOwnSuppression(
        ctx.db,
        caller(req),
        requestActor(req),
        req.params.number,
      ),
    }),
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MessageSchema,
  RecoveryCodesBodySchema,
  RecoveryCodesReplySchema,
  SecuritySettingsReplySchema,
  SecuritySettingsSchema,
  TwoFactorConfirmBodySchema,
  TwoFactorDisableBodySchema,
  TwoFactorSetupReplySchema,
  TwoFactorStatusSchema,
  server as msg,
} from '@herald/contract';
import { notFound } from '../../lib/app-error.js';
import { caller } from '../../plugins/auth.js';
import { requestActor } from '../audit/index.js';
import * as admin from './two-factor-admin.service.js';
import * as service from './two-factor.service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Two-factor sign-in (docs/product.md, Two-factor sign-in): the caller's own enrolment, turning
 * it off and new recovery codes, from a signed-in session only (an API key answers 403); the
 * Admin's requirement setting and reset of another user's.
 */
export const twoFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const own = { sessionOnly: true };

  app.get(
    '/two-factor',
    { config: own, schema: { response: { 200: TwoFactorStatusSchema } } },
    (req) => service.twoFactorStatus(ctx, caller(req)),
  );

  app.post(
    '/two-factor/setup',
    { config: own, schema: { response: { 200: TwoFactorSetupReplySchema } } },
    (req) => service.startSetup(ctx, caller(req)),
  );

  app.post(
    '/two-factor/confirm',
    {
      config: own,
      schema: { body: TwoFactorConfirmBodySchema, response: { 200: RecoveryCodesReplySchema } },
    },
    (req) => service.confirmSetup(ctx, caller(req), req.body.code, requestActor(req)),
  );

  app.post(
    '/two-factor/disable',
    {
      config: own,
      schema: { body: TwoFactorDisableBodySchema, response: { 200: MessageSchema } },
    },
    async (req) => ({
      message: await service.disableTwoFactor(ctx, caller(req), req.body, requestActor(req)),
    }),
  );

  app.post(
    '/two-factor/recovery-codes',
    {
      config: own,
      schema: { body: RecoveryCodesBodySchema, response: { 200: RecoveryCodesReplySchema } },
    },
    (req) => service.regenerateRecoveryCodes(ctx, caller(req), req.body.code, requestActor(req)),
  );

  const adminOnly = { roles: ['Admin'] as const, sessionOnly: true };

  app.get(
    '/settings/security',
    { config: adminOnly, schema: { response: { 200: SecuritySettingsReplySchema } } },
    () => admin.getSecuritySettings(ctx),
  );

  app.put(
    '/settings/security',
    {
      config: adminOnly,
      schema: { body: SecuritySettingsSchema, response: { 200: SecuritySettingsReplySchema } },
    },
    (req) => admin.setSecuritySettings(ctx, caller(req), req.body, requestActor(req)),
  );

  app.delete(
    '/users/:id/two-factor',
    {
      config: adminOnly,
      schema: { params: z.object({ id: z.string() }), response: { 200: MessageSchema } },
    },
    async (req) => {
      if (!UUID.test(req.params.id)) throw notFound(msg.userNotFound);
      return {
        message: await admin.resetTwoFactor(ctx, caller(req), req.params.id, requestActor(req)),
      };
    },
  );
};

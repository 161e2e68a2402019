import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminResetPasswordBodySchema,
  ChangePasswordBodySchema,
  ChangePasswordReplySchema,
  ForgotPasswordBodySchema,
  LoginAnswerSchema,
  LoginBodySchema,
  LoginReplySchema,
  MessageSchema,
  ResetPasswordBodySchema,
  SessionUserSchema,
  BrandingSchema,
  SetPasswordBodySchema,
  SetPasswordCheckBodySchema,
  TwoFactorLoginBodySchema,
  loadCommonPasswords,
  server as msg,
} from '@herald/contract';
import { caller } from '../../plugins/auth.js';
import { notFound } from '../../lib/app-error.js';
import { anonymousActor, requestActor } from '../audit/index.js';
import * as service from './auth.service.js';
import type { Claimant } from './auth-audit.js';
import { checkSetPasswordLink, setPasswordWithLink } from './set-password.service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Login, forgot/reset password with an emailed OTP, a new user's set-password link, change
 * password, admin reset.
 */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  /** Who a public request claims to be, for its audit entry. */
  const claimant =
    (req: FastifyRequest): Claimant =>
    (claimed) =>
      anonymousActor(req, claimed);
  // PasswordSchema refuses common passwords from the loaded list: load it before any request.
  await loadCommonPasswords();

  app.post(
    '/login',
    {
      config: { public: true },
      schema: { body: LoginBodySchema, response: { 200: LoginAnswerSchema } },
    },
    (req) => service.login(ctx, req.body.email, req.body.password, req.ip, claimant(req)),
  );

  // Two-factor sign-in's second step: the challenge /login answered and a code.
  app.post(
    '/login/two-factor',
    {
      config: { public: true },
      schema: { body: TwoFactorLoginBodySchema, response: { 200: LoginReplySchema } },
    },
    (req) => service.loginWithCode(ctx, req.body.challenge, req.body.code, req.ip, claimant(req)),
  );

  app.post(
    '/forgot-password',
    {
      config: { public: true },
      schema: { body: ForgotPasswordBodySchema, response: { 200: MessageSchema } },
    },
    async (req) => ({ message: await service.forgotPassword(ctx, req.body.email, req.ip) }),
  );

  app.post(
    '/reset-password',
    {
      config: { public: true },
      schema: { body: ResetPasswordBodySchema, response: { 200: MessageSchema } },
    },
    async (req) => ({ message: await service.resetPassword(ctx, req.body, req.ip, claimant(req)) }),
  );

  // A new user's mailed link (docs/product.md, Roles and scope): the token is the credential.
  app.post(
    '/set-password',
    {
      config: { public: true },
      schema: { body: SetPasswordBodySchema, response: { 200: MessageSchema } },
    },
    async (req) => ({ message: await setPasswordWithLink(ctx, req.body, req.ip, claimant(req)) }),
  );

  app.post(
    '/set-password/check',
    {
      config: { public: true },
      schema: { body: SetPasswordCheckBodySchema, response: { 200: BrandingSchema } },
    },
    (req) => checkSetPasswordLink(ctx, req.body.token, req.ip),
  );

  /** The caller as the server sees it now, from the auth cache: no database read. */
  app.get('/session', { schema: { response: { 200: SessionUserSchema } } }, (req) => {
    const { id, email, name, role, status, createdAt, mustChangePassword } = caller(req);
    const { twoFactorEnabled, mustEnrolTwoFactor } = caller(req);
    return {
      id,
      email,
      name,
      role,
      status,
      createdAt,
      mustChangePassword,
      twoFactorEnabled,
      mustEnrolTwoFactor,
    };
  });

  app.put(
    '/users/change-password',
    { schema: { body: ChangePasswordBodySchema, response: { 200: ChangePasswordReplySchema } } },
    async (req) => {
      const token = await service.changePassword(ctx, caller(req), req.body, requestActor(req));
      return { message: msg.passwordChanged, token };
    },
  );

  app.put(
    '/users/admin-reset-password/:id',
    {
      config: { roles: ['Admin'] },
      schema: {
        params: z.object({ id: z.string() }),
        body: AdminResetPasswordBodySchema,
        response: { 200: MessageSchema },
      },
    },
    async (req) => {
      if (!UUID.test(req.params.id)) throw notFound(msg.userNotFound);
      const message = await service.adminResetPassword(
        ctx,
        caller(req),
        req.params.id,
        req.body.newPassword,
        requestActor(req),
      );
      return { message };
    },
  );
};

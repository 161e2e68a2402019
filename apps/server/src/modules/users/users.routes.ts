import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateUserBodySchema,
  CreateUserReplySchema,
  MANAGER_ROLES,
  MessageSchema,
  ProfileSchema,
  UpdateUserReplySchema,
  UserPageSchema,
  UsersQuerySchema,
  server as msg,
} from '@herald/contract';
import { notFound } from '../../lib/app-error.js';
import { withMultipart } from '../../plugins/multipart.js';
import { caller } from '../../plugins/auth.js';
import { requestActor } from '../audit/index.js';
import { readLogoForm } from '../branding/index.js';
import { sendSetPasswordLink } from './set-password-link.js';
import { updateUser } from './users-update.service.js';
import * as service from './users.service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Any string is accepted so that an id that cannot exist answers 404, like one out of scope. */
const UserIdParamsSchema = z.object({ id: z.string() });

function userId(id: string): string {
  if (!UUID.test(id)) throw notFound(msg.userNotFound);
  return id.toLowerCase();
}

/** User management and profiles; scope rules in docs/product.md, Roles and scope. */
export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.get(
    '/users',
    {
      config: { roles: MANAGER_ROLES },
      schema: { querystring: UsersQuerySchema, response: { 200: UserPageSchema } },
    },
    (req) => service.listUsers(ctx, caller(req), req.query),
  );

  app.post(
    '/users',
    {
      config: { roles: MANAGER_ROLES },
      schema: { body: CreateUserBodySchema, response: { 201: CreateUserReplySchema } },
    },
    async (req, reply) => {
      const created = await service.createUser(ctx, caller(req), req.body, requestActor(req));
      return reply.code(201).send(created);
    },
  );

  // multipart/form-data (the Edit User form, with an optional companyLogo file) or JSON: the body
  // is read and validated against UpdateUserBodySchema by the handler, as multipart has no
  // body for the schema compiler to see.
  await withMultipart(app, (uploads) => {
    uploads.put(
      '/users/update/:id',
      {
        config: { roles: MANAGER_ROLES },
        schema: { params: UserIdParamsSchema, response: { 200: UpdateUserReplySchema } },
      },
      async (req) => {
        const id = userId(req.params.id);
        const input = await readLogoForm(req);
        const user = await updateUser(ctx, caller(req), id, input, req.log, requestActor(req));
        return { message: msg.userUpdated, user };
      },
    );
  });

  app.post(
    '/users/:id/set-password-link',
    {
      config: { roles: MANAGER_ROLES },
      schema: { params: UserIdParamsSchema, response: { 200: MessageSchema } },
    },
    async (req) => ({
      message: await sendSetPasswordLink(ctx, caller(req), userId(req.params.id)),
    }),
  );

  app.get(
    '/users/profile/:id',
    { schema: { params: UserIdParamsSchema, response: { 200: ProfileSchema } } },
    (req) => service.getProfile(ctx, caller(req), userId(req.params.id)),
  );
};

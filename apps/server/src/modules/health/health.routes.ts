import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HealthSchema } from '@herald/contract';
import { AppError } from '../../lib/app-error.js';
import { pingDatabase } from './health.repo.js';

/** GET /api/health: 200 once migrations ran (they run before listen) and the database answers. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    { config: { public: true }, schema: { response: { 200: HealthSchema } } },
    async () => {
      try {
        await pingDatabase(app.ctx.db);
      } catch {
        throw new AppError(503, 'The database does not answer.');
      }
      return { status: 'ok' as const };
    },
  );
};

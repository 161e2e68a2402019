import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config/config.js';
import { createContext, type AppContext } from './context.js';
import type { Mailer } from './lib/mail.js';
import { registerAuth } from './plugins/auth.js';
import { registerErrorHandler } from './plugins/errors.js';
import { serializerCompiler } from './plugins/serializer.js';
import { lazyChildLoggerFactory, loggedRequest } from './plugins/request-logger.js';
import { registerApiCompression } from './plugins/compression.js';
import { registerWebStatic } from './plugins/web-static.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { twoFactorRoutes } from './modules/two-factor/two-factor.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { brandingRoutes } from './modules/branding/branding.routes.js';
import { quietHoursRoutes } from './modules/quiet-hours/quiet-hours.routes.js';
import { filesRoutes } from './modules/branding/files.routes.js';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.js';
import { analyticsRoutes } from './modules/analytics/analytics.routes.js';
import { creditsRoutes } from './modules/credits/credits.routes.js';
import { historyRoutes } from './modules/credits/history.routes.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { campaignsRoutes } from './modules/campaigns/campaigns.routes.js';
import { ticketsRoutes } from './modules/tickets/tickets.routes.js';
import { announcementsRoutes } from './modules/announcements/announcements.routes.js';
import { announcementFilesRoutes } from './modules/announcements/announcement-files.routes.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { suppressionsRoutes } from './modules/suppressions/suppressions.routes.js';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { liveRoutes } from './modules/live/live.routes.js';
import { backupRoutes } from './modules/backup/backup.routes.js';
import { publicApi } from './modules/public-api/index.js';
import {
  deliveryReadRoutes,
  dispatchControlRoutes,
  sendersRoutes,
  providersRoutes,
  templatesRoutes,
  webhookRoutes,
} from './modules/delivery/index.js';
import { ensureFirstAdmin, type FirstAdmin } from './modules/users/first-admin.js';

export type BuildOptions = {
  config: Config;
  /** pino options; false silences the log (tests). */
  logger?: boolean | object;
} & (
  | {
      /** The database to use (the embedded server's URL or DATABASE_URL). */
      databaseUrl: string;
      /** Replaces the mail transport (tests capture mail). */
      mailer?: Mailer;
    }
  | {
      /** A context the caller built and closes; the app only uses it. */
      ctx: AppContext;
    }
);

export interface BuiltApp {
  app: FastifyInstance;
  firstAdmin: FirstAdmin | null;
}

/** Builds the whole app: infrastructure first, then the domain modules under /api. */
export async function buildApp(opts: BuildOptions): Promise<BuiltApp> {
  const { config } = opts;
  const app = Fastify({
    // A webhook's token segment is its credential: the request lines never write it.
    logger:
      opts.logger === false
        ? false
        : {
            level: config.logLevel,
            serializers: { req: loggedRequest },
            ...(typeof opts.logger === 'object' ? opts.logger : {}),
          },
    // Fastify refuses a bare hop count (it cannot tell the proxy from a client), so the count
    // becomes a trust function: the server is reachable only through that many proxies.
    trustProxy: ((tp) => (typeof tp === 'number' ? (_: string, hop: number) => hop < tp : tp))(
      config.trustProxy,
    ),
    bodyLimit: 1024 * 1024,
    // Per-request lines only when debugging: at info they would dominate the log and the CPU.
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
    childLoggerFactory: lazyChildLoggerFactory,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  let ctx: AppContext;
  if ('ctx' in opts) {
    ctx = opts.ctx;
  } else {
    const owned = await createContext(config, {
      databaseUrl: opts.databaseUrl,
      log: app.log,
      mailer: opts.mailer,
    });
    app.addHook('onClose', () => owned.close());
    ctx = owned;
  }
  app.decorate('ctx', ctx);

  registerErrorHandler(app);
  await app.register(
    async (api) => {
      await registerApiCompression(api);
      registerAuth(api);
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(twoFactorRoutes);
      await api.register(usersRoutes);
      await api.register(brandingRoutes);
      await api.register(quietHoursRoutes);
      await api.register(filesRoutes);
      await api.register(dashboardRoutes);
      await api.register(analyticsRoutes);
      await api.register(creditsRoutes);
      await api.register(historyRoutes);
      await api.register(auditRoutes);
      await api.register(campaignsRoutes);
      await api.register(ticketsRoutes);
      await api.register(announcementsRoutes);
      await api.register(announcementFilesRoutes);
      await api.register(notificationsRoutes);
      await api.register(suppressionsRoutes);
      await api.register(apiKeysRoutes);
      await api.register(webhooksRoutes);
      await api.register(liveRoutes);
      await api.register(backupRoutes);
      // Public: the provider's signature over the raw body is its credential.
      await api.register(webhookRoutes);
      await api.register(dispatchControlRoutes);
      await api.register(sendersRoutes);
      await api.register(providersRoutes);
      await api.register(templatesRoutes);
      await api.register(deliveryReadRoutes);
      // The versioned public API and its reference (docs/api.md).
      await api.register(publicApi);
    },
    { prefix: '/api' },
  );
  await registerWebStatic(app, config.webDist);

  const firstAdmin = await ensureFirstAdmin(ctx.db, ctx.hasher, {
    email: config.adminEmail,
    password: config.adminPassword,
  });
  await app.ready();
  return { app, firstAdmin };
}

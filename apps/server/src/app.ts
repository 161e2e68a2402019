import path from 'node:path';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { TOKEN_TTL_SECONDS } from '@herald/contract';
import type { Config } from './config/config.js';
import type { AppContext } from './context.js';
import { migrate, openDatabase } from './db/database.js';
import { PasswordHasher } from './lib/password.js';
import { TokenService } from './lib/tokens.js';
import { createMailer, type Mailer } from './lib/mail.js';
import { resolveJwtSecret } from './lib/secrets.js';
import { AuthState } from './plugins/auth-state.js';
import { registerAuth } from './plugins/auth.js';
import { registerErrorHandler } from './plugins/errors.js';
import { serializerCompiler } from './plugins/serializer.js';
import { RateLimiter } from './plugins/rate-limit.js';
import { lazyChildLoggerFactory } from './plugins/request-logger.js';
import { registerWebStatic } from './plugins/web-static.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { brandingRoutes } from './modules/branding/branding.routes.js';
import { filesRoutes } from './modules/branding/files.routes.js';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.js';
import { creditsRoutes } from './modules/credits/credits.routes.js';
import { historyRoutes } from './modules/credits/history.routes.js';
import { campaignsRoutes } from './modules/campaigns/campaigns.routes.js';
import { ensureFirstAdmin, type FirstAdmin } from './modules/users/first-admin.js';

export interface BuildOptions {
  config: Config;
  /** The database to use (the embedded server's URL or DATABASE_URL). */
  databaseUrl: string;
  /** pino options; false silences the log (tests). */
  logger?: boolean | object;
  /** Replaces the mailer (tests capture mail). */
  mailer?: Mailer;
}

export interface BuiltApp {
  app: FastifyInstance;
  firstAdmin: FirstAdmin | null;
}

/** Builds the whole app: infrastructure first, then the domain modules under /api. */
export async function buildApp(opts: BuildOptions): Promise<BuiltApp> {
  const { config } = opts;
  const app = Fastify({
    logger: opts.logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Per-request lines only when debugging: at info they would dominate the log and the CPU.
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
    childLoggerFactory: lazyChildLoggerFactory,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const database = openDatabase(opts.databaseUrl, config.dbPoolMax);
  try {
    await migrate(database.pool);
  } catch (err) {
    await database.close();
    throw err;
  }
  const hasher = new PasswordHasher(config.passwordHashCost);
  const authState = new AuthState(database.db, opts.databaseUrl, (m) => app.log.warn(m));
  await authState.start();
  const ctx: AppContext = {
    config,
    db: database.db,
    pool: database.pool,
    hasher,
    tokens: new TokenService(
      await resolveJwtSecret(config.jwtSecret, config.dataDir),
      TOKEN_TTL_SECONDS,
    ),
    mailer:
      opts.mailer ??
      createMailer({
        smtpUrl: config.smtpUrl,
        from: config.mailFrom,
        outboxDir: path.join(config.dataDir, 'outbox'),
        log: (m) => app.log.info(m),
      }),
    authState,
    rateLimiter: new RateLimiter(database.db),
    uploadsDir: path.join(config.dataDir, 'uploads'),
  };
  app.decorate('ctx', ctx);
  app.addHook('onClose', async () => {
    await authState.stop();
    await database.close();
  });

  registerErrorHandler(app);
  await app.register(
    async (api) => {
      registerAuth(api);
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(usersRoutes);
      await api.register(brandingRoutes);
      await api.register(filesRoutes);
      await api.register(dashboardRoutes);
      await api.register(creditsRoutes);
      await api.register(historyRoutes);
      await api.register(campaignsRoutes);
    },
    { prefix: '/api' },
  );
  await registerWebStatic(app, config.webDist);

  const firstAdmin = await ensureFirstAdmin(ctx.db, hasher, {
    email: config.adminEmail,
    password: config.adminPassword,
  });
  await app.ready();
  return { app, firstAdmin };
}

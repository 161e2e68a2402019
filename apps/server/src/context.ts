import { ensureSharedSecrets, type SharedSecrets } from './db/shared-secrets.js';
import path from 'node:path';
import type pg from 'pg';
import { TOKEN_TTL_SECONDS } from '@herald/contract';
import type { Config } from './config/config.js';
import { migrate, openDatabase, type Db } from './db/database.js';
import { ensureAppRole } from './db/app-role.js';
import { PasswordHasher } from './lib/password.js';
import { SecretBox } from './lib/secret-box.js';
import type { FileStore } from './lib/storage/file-store.js';
import { openFileStore } from './lib/storage/open-store.js';
import { prepareStaging } from './lib/storage/staging.js';
import { TokenService } from './lib/tokens.js';
import { createMailer, type Mailer } from './lib/mail.js';
import { AuthState } from './plugins/auth-state.js';
import { RateLimiter } from './plugins/rate-limit.js';
import { migrateJobQueue } from './jobs/job-queue.js';
import { MailOutbox } from './jobs/mail-outbox.js';
import type { Log } from './jobs/worker-logger.js';
import type { CampaignDispatch } from './modules/campaigns/index.js';
import { campaignDispatch, createDelivery, type Delivery } from './modules/delivery/index.js';

export type { Log };

/** The app's shared services, built once by createContext and reached as `app.ctx`. */
export interface AppContext {
  config: Config;
  /**
   * The app role's connection to the database in use (the embedded server or DATABASE_URL):
   * rows only, no schema changes (db/app-role.ts). Requests, LISTEN and the job runner use it.
   */
  databaseUrl: string;
  db: Db;
  /** The pool behind `db`, for prepared hot-path reads (db/prepared.ts). */
  pool: pg.Pool;
  log: Log;
  hasher: PasswordHasher;
  tokens: TokenService;
  /** Mail goes out through the outbox (in the caller's transaction), never straight here. */
  outbox: MailOutbox;
  authState: AuthState;
  rateLimiter: RateLimiter;
  /**
   * Every file kept beyond one request or job (lib/storage): DATA_DIR or S3, shared by all
   * instances. Keys: `uploads/<area>/<name>`, `backups/<name>`, `backup-downloads/<name>`.
   */
  files: FileStore;
  /**
   * This instance's own folder for a request's temporary files (an upload being checked before
   * it is stored): never read by another instance, emptied of leftovers at start-up.
   */
  stagingDir: string;
  /**
   * Seals and opens the secrets Herald keeps for later use (provider credentials), under the
   * shared credentials key: the same on every instance of one database.
   */
  secretBox: SecretBox;
  /** Provider adapters, the webhook secret and the in-process simulator. */
  delivery: Delivery;
  /**
   * The delivery engine's start and stop of a campaign's sending, as the campaigns module's
   * status change asks them (its CampaignDispatch port): campaigns never imports the engine.
   */
  dispatch: CampaignDispatch;
}

export interface OwnedContext extends AppContext {
  /** Stops what the context started and closes the database pool. */
  close(): Promise<void>;
}

export interface ContextOptions {
  /** The owner's connection (the embedded server's or DATABASE_URL): migrations and grants. */
  databaseUrl: string;
  log: Log;
  /** Replaces the mail transport (tests capture mail). */
  mailer?: Mailer;
}

/**
 * As the owner, applies the app's and the job queue's migrations and sets up the app role;
 * then opens the database as that role and builds every shared service once. It needs no
 * Fastify: a worker or a command-line task runs on it alone.
 */
export async function createContext(config: Config, opts: ContextOptions): Promise<OwnedContext> {
  const { log } = opts;
  const { databaseUrl, secrets } = await migrateAsOwner(opts.databaseUrl, config, log);
  const database = openDatabase(databaseUrl, config.dbPoolMax);
  const files = openFileStore(config.storage, config.dataDir);
  const stagingDir = path.join(config.dataDir, 'tmp');
  let authState: AuthState | undefined;
  let delivery: Delivery | undefined;
  try {
    await prepareStaging(stagingDir, files, log);
    const tokens = new TokenService(secrets.jwt, TOKEN_TTL_SECONDS);
    const transport =
      opts.mailer ??
      createMailer({
        smtpUrl: config.smtpUrl,
        from: config.mailFrom,
        files,
        log: (m) => log.info({}, m),
      });
    authState = new AuthState(database.db, databaseUrl, (m) => log.warn({}, m));
    await authState.start();
    const started = authState;
    const secretBox = new SecretBox(secrets.credentials);
    delivery = await createDelivery(
      { ...config.delivery, webhookSecret: secrets.deliveryWebhook },
      log,
      { db: database.db, files, secretBox, publicUrl: config.publicUrl },
    );
    const deliveryStarted = delivery;
    return {
      config,
      databaseUrl,
      db: database.db,
      pool: database.pool,
      log,
      hasher: new PasswordHasher(config.passwordHashCost),
      tokens,
      outbox: new MailOutbox(database.db, transport),
      authState: started,
      rateLimiter: new RateLimiter(database.db),
      files,
      stagingDir,
      secretBox,
      delivery: deliveryStarted,
      dispatch: campaignDispatch({
        log,
        delivery: deliveryStarted,
        quietHours: config.delivery.quietHours,
      }),
      async close() {
        await files.close();
        await deliveryStarted.close();
        await started.stop();
        await database.close();
      },
    };
  } catch (err) {
    await delivery?.close().catch(() => {});
    await authState?.stop().catch(() => {});
    await files.close().catch(() => {});
    await database.close();
    throw err;
  }
}

/** Migrations, grants and shared secrets on a short-lived owner pool; answers the app role's URL and the secrets. */
async function migrateAsOwner(
  ownerUrl: string,
  config: Config,
  log: Log,
): Promise<{ databaseUrl: string; secrets: SharedSecrets }> {
  const owner = openDatabase(ownerUrl, 2);
  try {
    await migrate(owner.pool);
    await migrateJobQueue(owner.pool, log);
    const databaseUrl = await ensureAppRole(owner.pool, {
      ownerUrl,
      appUrl: config.appDatabaseUrl,
    });
    const secrets = await ensureSharedSecrets(owner.pool, {
      jwt: config.jwtSecret,
      deliveryWebhook: config.delivery.webhookSecret,
      credentials: config.secretsKey,
      dataDir: config.dataDir,
    });
    return { databaseUrl, secrets };
  } finally {
    await owner.close();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { CreateUserReply, LoginReply, Role } from '@herald/contract';
import { loadConfig, type Config } from '../src/config/config.js';
import { buildApp } from '../src/app.js';
import { openDatabase, type Db } from '../src/db/database.js';
import type { MailMessage } from '../src/lib/mail.js';
import { runDueJobs } from '../src/jobs/runner.js';
import { TEST_S3_KEYS, testStorageUrl } from './s3-server.js';

export const ADMIN_EMAIL = 'admin@test.local';
export const ADMIN_PASSWORD = 'admin-password-1';
export const DEFAULT_PASSWORD = 'user-password-1';

export interface TestApp {
  app: FastifyInstance;
  /** The app's own handle: the app role's rights (rows only), as requests have. */
  db: Db;
  /** The owner's handle, for a fixture that needs more than the app may do (TRUNCATE, DDL). */
  ownerDb: Db;
  config: Config;
  /**
   * Every mail the app sent, in order. Mail goes through the outbox and a job: `request` runs
   * the due jobs after any request that left unsent mail, so a test reads its mail here at once.
   */
  mails: MailMessage[];
  /** Runs every job due now (the background runner is not started in tests). */
  runDueJobs(): Promise<void>;
  /** While set, the mail transport fails with this error, as a broken SMTP server would. */
  mailFailure: Error | null;
  dataDir: string;
  /** The owner's URL of the test database (the app itself connects as its app role). */
  databaseUrl: string;
  /** HTTP request through inject; `token` becomes the bearer header. */
  request(opts: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  login(email: string, password?: string): Promise<string>;
  adminToken(): Promise<string>;
  /** Creates a user through the API as `creatorToken`, and logs it in. */
  createUser(
    creatorToken: string,
    fields: { role: Role; name?: string; email?: string; password?: string },
  ): Promise<{ user: CreateUserReply['user']; token: string; password: string }>;
  /**
   * A second server instance on the same database (scale-out tests), with `overrides` of the
   * first one's settings (its own DATA_DIR, another secret); closed with `close`.
   */
  secondInstance(overrides?: Partial<Config>): Promise<FastifyInstance>;
  /**
   * A second instance that can only see the first one's files through the shared store: on S3
   * it gets a DATA_DIR of its own (removed with `close`); the local driver's files are
   * DATA_DIR's, so there it shares the first one's.
   */
  otherInstance(): Promise<FastifyInstance>;
  close(): Promise<void>;
}

/** Connection URL of `db` on the test server. */
export function dbUrl(adminUrl: string, db: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${db}`;
  return url.toString();
}

/**
 * STORAGE_URL for an app whose files go to the test S3 server, each call under its own prefix.
 * The keys are s3rver's, given as the AWS variables the SDK reads (never in the URL).
 */
export function s3StorageEnv(): Record<string, string> {
  process.env.AWS_ACCESS_KEY_ID ??= TEST_S3_KEYS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY ??= TEST_S3_KEYS.secretAccessKey;
  return { STORAGE_URL: testStorageUrl(inject('s3Endpoint'), `t-${randomUUID()}`) };
}

/**
 * A fresh database (cloned from the migrated template) and a fresh app for one test file.
 * TEST_STORAGE=s3 runs every such app on the S3 driver.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  /** Every log line the app writes, at debug level and up, when given (the app is silent otherwise). */
  logs?: string[],
): Promise<TestApp> {
  const adminUrl = inject('pgAdminUrl');
  const name = `herald_t_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${inject('templateDb')}"`);
  await admin.end();
  const databaseUrl = dbUrl(adminUrl, name);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-test-data-'));
  const config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'silent',
      JWT_SECRET: 'test-secret-test-secret-test-secret-42',
      // Sending must not depend on the hour a test runs at; quiet-hours tests switch it on.
      DELIVERY_QUIET_HOURS: 'off',
      ...(process.env.TEST_STORAGE === 's3' && s3StorageEnv()),
      ...env,
    }),
    // Below the floor the environment may set: hundreds of test logins stay fast at cost 12.
    passwordHashCost: 12,
  };
  const mails: MailMessage[] = [];
  const { app } = await buildApp({
    config,
    databaseUrl,
    logger: logs
      ? { level: 'debug', stream: { write: (line: string) => void logs.push(line) } }
      : false,
    mailer: {
      async send(m) {
        if (t.mailFailure) throw t.mailFailure;
        mails.push(m);
      },
    },
  });

  const hasUnsentMail = async () =>
    !!(await app.ctx.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('sent_at', 'is', null)
      .limit(1)
      .executeTakeFirst());
  const others: FastifyInstance[] = [];
  const otherDirs: string[] = [];
  const owner = openDatabase(databaseUrl, 2);
  let counter = 0;
  const t: TestApp = {
    app,
    db: app.ctx.db,
    ownerDb: owner.db,
    config,
    mails,
    dataDir,
    databaseUrl,
    async request({ token, headers, ...opts }) {
      const res = await app.inject({
        ...opts,
        headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
      const method = (opts.method ?? 'GET').toUpperCase();
      if (method !== 'GET' && method !== 'HEAD' && (await hasUnsentMail())) {
        await t.runDueJobs();
      }
      return res;
    },
    runDueJobs() {
      return runDueJobs(app.ctx);
    },
    mailFailure: null,
    async login(email, password = DEFAULT_PASSWORD) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email, password },
      });
      if (res.statusCode !== 200) throw new Error(`login ${email}: ${res.statusCode} ${res.body}`);
      return res.json<LoginReply>().token;
    },
    adminToken() {
      return t.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    },
    async createUser(creatorToken, fields) {
      counter++;
      const password = fields.password ?? DEFAULT_PASSWORD;
      const res = await t.request({
        method: 'POST',
        url: '/api/users',
        token: creatorToken,
        payload: {
          name: fields.name ?? `${fields.role} ${counter}`,
          email:
            fields.email ??
            `${fields.role.toLowerCase()}-${counter}-${randomUUID().slice(0, 6)}@test.local`,
          password,
          role: fields.role,
        },
      });
      if (res.statusCode !== 201) throw new Error(`create user: ${res.statusCode} ${res.body}`);
      const { user } = res.json<CreateUserReply>();
      return { user, token: await t.login(user.email, password), password };
    },
    async secondInstance(overrides = {}) {
      const built = await buildApp({
        config: { ...config, ...overrides },
        databaseUrl,
        logger: false,
        mailer: { send: async () => {} },
      });
      others.push(built.app);
      return built.app;
    },
    async otherInstance() {
      if (app.ctx.files.driver === 'local') return t.secondInstance();
      const own = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-test-other-'));
      otherDirs.push(own);
      return t.secondInstance({ dataDir: own });
    },
    async close() {
      for (const o of others) await o.close();
      const appRole = decodeURIComponent(new URL(app.ctx.databaseUrl).username);
      await app.close();
      await owner.close();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      // Roles are the cluster's, not the database's: the app role goes with its database.
      await a.query(`DROP ROLE IF EXISTS ${pg.escapeIdentifier(appRole)}`);
      await a.end();
      await fs.rm(dataDir, { recursive: true, force: true });
      for (const dir of otherDirs) await fs.rm(dir, { recursive: true, force: true });
    },
  };
  return t;
}

import { z } from 'zod';
import path from 'node:path';
import { isIP } from 'node:net';
import { parseStorageUrl, type StorageTarget } from '../lib/storage/storage-url.js';
import { parseSecretKey } from '../lib/secret-box.js';

/** What Fastify's `trustProxy` is given: no hop, a hop count, or the proxies' addresses. */
export type TrustProxy = false | number | string[];

/** An IP address or CIDR, or one of proxy-addr's named ranges. */
function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (!version || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  /** Where files are kept: unset, under DATA_DIR; `s3://bucket/prefix?…`, object storage. */
  STORAGE_URL: z
    .string()
    .optional()
    .transform((v, ctx) => {
      try {
        return parseStorageUrl(v || undefined);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /**
   * The login role that serves requests and runs jobs, when the operator makes it; unset, the
   * server makes its own (DATABASE_URL's user then needs CREATEROLE). DATABASE_URL's user owns
   * the schema and runs the migrations.
   */
  APP_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  ADMIN_EMAIL: z
    .email()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  ADMIN_PASSWORD: z
    .string()
    .min(8)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_FROM: z.string().min(3).default('Herald <no-reply@herald.local>'),
  /**
   * Where users open the web app: the base of the links mail carries (a new user's link to set a
   * password). Unset: http://localhost:PORT, right for a trial on one machine only.
   */
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  JWT_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /**
   * The key provider credentials are encrypted under (lib/secret-box.ts): 64 hex digits or 32
   * bytes in base64. Unset, one is generated once into the owner-only schema, as the JWT key.
   */
  SECRETS_KEY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v?.trim()) return undefined;
      const key = parseSecretKey(v);
      if (key) return key;
      ctx.addIssue({ code: 'custom', message: 'must be 64 hex digits or 32 bytes in base64' });
      return z.NEVER;
    }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * log2 of scrypt's N; 17 is OWASP's floor. Below 15 a stolen hash table is cheap to crack, so
   * the environment cannot go lower (the in-process test harness sets its hasher apart).
   */
  PASSWORD_HASH_COST: z.coerce
    .number()
    .int()
    .min(15, 'must be at least 15 (log2 of scrypt N; 17 is the OWASP floor)')
    .max(20)
    .default(17),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(100).default(4),
  /** When the scheduled backup runs (cron: minute hour day month weekday); daily at 02:30. */
  BACKUP_CRON: z
    .string()
    .trim()
    .regex(/^(\S+\s+){4}\S+$/, 'must be a cron line of five fields')
    .default('30 2 * * *'),
  /** How many scheduled backups are kept in DATA_DIR/backups/; older ones are pruned. */
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
  /**
   * Uploads are refused (507) while the disk under DATA_DIR has less free space than this, so
   * uploads cannot fill it up for the database and the backups.
   */
  UPLOADS_MIN_FREE_MB: z.coerce.number().int().min(0).max(100_000_000).default(1024),
  /**
   * Which X-Forwarded-For hops to believe, so rate limits see the client's address: `false`
   * none, a number of proxy hops (`true` means one), or a comma-separated list of the proxies'
   * addresses or CIDRs. Trusting every hop would let a client forge its address.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v, ctx): TrustProxy => {
      const value = v.trim();
      if (value === 'false' || value === '') return false;
      if (value === 'true') return 1;
      if (/^\d+$/.test(value)) return Number(value);
      const entries = value.split(',').map((p) => p.trim());
      if (entries.every(isProxyAddress)) return entries;
      ctx.addIssue({
        code: 'custom',
        message: 'must be false, a hop count, or a comma-separated list of addresses or CIDRs',
      });
      return z.NEVER;
    }),
  /** Whether the delivery engine sends Approved campaigns; off leaves manual fulfilment only. */
  DELIVERY_DISPATCH: z.enum(['on', 'off']).default('on'),
  /**
   * Whether campaigns get their owner's quiet hours when they start (docs/delivery.md, Quiet
   * hours). Off only for tests whose sending must not depend on the hour they run at.
   */
  DELIVERY_QUIET_HOURS: z.enum(['on', 'off']).default('on'),
  /** Messages in flight at once per instance: also the bound on duplicates after a crash. */
  DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(64),
  /** Sends of one recipient before a transient error fails it. */
  DELIVERY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(5),
  /** Shared secret of the providers' status webhooks; unset, one kept in the database (db/shared-secrets.ts). */
  DELIVERY_WEBHOOK_SECRET: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** An external simulator (its own process); unset, the app starts one on loopback. */
  SIMULATOR_URL: z
    .string()
    .regex(/^https?:\/\//, 'must be an http:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** The in-process simulator: its rate cap (messages per second) and its outcomes. */
  SIMULATOR_RATE: z.coerce.number().int().min(1).max(100000).default(100),
  SIMULATOR_FAIL_RATIO: z.coerce.number().min(0).max(1).default(0.05),
  SIMULATOR_READ_RATIO: z.coerce.number().min(0).max(1).default(0.5),
  SIMULATOR_DELAY_MS: z.coerce.number().int().min(0).max(600000).default(300),
  /**
   * Whether customers' webhook endpoints may be plain http and resolve to loopback, private or
   * reserved addresses (docs/operations.md): for tests and closed networks only.
   */
  WEBHOOK_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  /** The built web app; empty serves the API only (null), unset takes the default. */
  WEB_DIST: z
    .string()
    .optional()
    .transform((v) => (v === '' ? null : v && path.resolve(v))),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Where files are kept (lib/storage): DATA_DIR or an S3 bucket. */
  storage: StorageTarget;
  /** Free bytes under DATA_DIR below which uploads are refused. */
  uploadsMinFreeBytes: number;
  /** The owner's connection: migrations and grants. */
  databaseUrl: string | undefined;
  /** The app role's connection (requests, jobs); unset, the server makes the role. */
  appDatabaseUrl: string | undefined;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The web app's address as users reach it, without a trailing slash. */
  publicUrl: string;
  jwtSecret: string | undefined;
  /** SECRETS_KEY: the provider credentials' key; unset, the database keeps one. */
  secretsKey: Buffer | undefined;
  logLevel: string;
  passwordHashCost: number;
  dbPoolMax: number;
  /** Scheduled backup: its cron line and how many are kept. */
  backupCron: string;
  backupKeep: number;
  trustProxy: TrustProxy;
  /** Directory of the built web app; undefined serves the API only. */
  webDist: string | undefined;
  delivery: DeliveryConfig;
  /** Customers' webhooks: whether private addresses (and plain http) are allowed. */
  webhooks: { allowPrivate: boolean };
}

export interface DeliveryConfig {
  dispatch: boolean;
  /** Campaigns get their owner's quiet hours at start (DELIVERY_QUIET_HOURS). */
  quietHours: boolean;
  concurrency: number;
  maxAttempts: number;
  webhookSecret: string | undefined;
  simulator: {
    /** Set: an external simulator; unset: one on loopback inside the app. */
    url: string | undefined;
    ratePerSecond: number;
    failRatio: number;
    readRatio: number;
    delayMs: number;
  };
}

export interface ConfigDefaults {
  /**
   * Where the built web app lies when WEB_DIST is unset. The entry point knows it (it sits at
   * the same depth in src/ and in the bundle); without it, an unset WEB_DIST serves no web app.
   */
  webDist?: string;
}

/** Parses the environment; a bad variable stops the start with the full list of problems. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  defaults: ConfigDefaults = {},
): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.APP_DATABASE_URL && !e.DATABASE_URL) {
    // The embedded server's port changes at every start: it makes its own app role.
    throw new Error('Invalid configuration:\n  APP_DATABASE_URL: needs DATABASE_URL');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    storage: e.STORAGE_URL,
    uploadsMinFreeBytes: e.UPLOADS_MIN_FREE_MB * 1024 * 1024,
    databaseUrl: e.DATABASE_URL,
    appDatabaseUrl: e.APP_DATABASE_URL,
    adminEmail: e.ADMIN_EMAIL?.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    jwtSecret: e.JWT_SECRET,
    secretsKey: e.SECRETS_KEY,
    logLevel: e.LOG_LEVEL,
    passwordHashCost: e.PASSWORD_HASH_COST,
    dbPoolMax: e.DB_POOL_MAX,
    backupCron: e.BACKUP_CRON,
    backupKeep: e.BACKUP_KEEP,
    trustProxy: e.TRUST_PROXY,
    webDist: e.WEB_DIST === null ? undefined : (e.WEB_DIST ?? defaults.webDist),
    delivery: {
      dispatch: e.DELIVERY_DISPATCH === 'on',
      quietHours: e.DELIVERY_QUIET_HOURS === 'on',
      concurrency: e.DELIVERY_CONCURRENCY,
      maxAttempts: e.DELIVERY_MAX_ATTEMPTS,
      webhookSecret: e.DELIVERY_WEBHOOK_SECRET,
      simulator: {
        url: e.SIMULATOR_URL,
        ratePerSecond: e.SIMULATOR_RATE,
        failRatio: e.SIMULATOR_FAIL_RATIO,
        readRatio: e.SIMULATOR_READ_RATIO,
        delayMs: e.SIMULATOR_DELAY_MS,
      },
    },
    webhooks: { allowPrivate: e.WEBHOOK_ALLOW_PRIVATE === 'true' },
  };
}

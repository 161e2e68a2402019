import { z } from 'zod';
import path from 'node:path';

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
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
  JWT_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
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
  /** Set behind a reverse proxy so rate limits see the client's address. */
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
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
  databaseUrl: string | undefined;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  jwtSecret: string | undefined;
  logLevel: string;
  passwordHashCost: number;
  dbPoolMax: number;
  trustProxy: boolean;
  /** Directory of the built web app; undefined serves the API only. */
  webDist: string | undefined;
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
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    adminEmail: e.ADMIN_EMAIL?.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    jwtSecret: e.JWT_SECRET,
    logLevel: e.LOG_LEVEL,
    passwordHashCost: e.PASSWORD_HASH_COST,
    dbPoolMax: e.DB_POOL_MAX,
    trustProxy: e.TRUST_PROXY,
    webDist: e.WEB_DIST === null ? undefined : (e.WEB_DIST ?? defaults.webDist),
  };
}

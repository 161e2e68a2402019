import type pg from 'pg';
import type { Config } from './config/config.js';
import type { Db } from './db/database.js';
import type { PasswordHasher } from './lib/password.js';
import type { TokenService } from './lib/tokens.js';
import type { Mailer } from './lib/mail.js';
import type { AuthState } from './plugins/auth-state.js';
import type { RateLimiter } from './plugins/rate-limit.js';

/** The app's shared services, built once in buildApp and reached as `app.ctx`. */
export interface AppContext {
  config: Config;
  db: Db;
  /** The pool behind `db`, for prepared hot-path reads (db/prepared.ts). */
  pool: pg.Pool;
  hasher: PasswordHasher;
  tokens: TokenService;
  mailer: Mailer;
  authState: AuthState;
  rateLimiter: RateLimiter;
  /** Where uploaded files live (DATA_DIR/uploads). */
  uploadsDir: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

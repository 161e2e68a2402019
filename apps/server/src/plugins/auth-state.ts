import pg from 'pg';
import type { Role, UserStatus } from '@herald/contract';
import type { Db, DbOrTx } from '../db/database.js';
import { compiler, param, prepared } from '../db/prepared.js';
import { sql } from 'kysely';

/** What a request knows about its caller: read from the database, never from the token. */
export interface AuthUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  status: UserStatus;
  tokenVersion: number;
  createdAt: string;
}

const CHANNEL = 'herald_auth';

const userById = prepared('auth.userById', { id: param<string>() }, (p) =>
  compiler
    .selectFrom('users')
    .select(['id', 'email', 'name', 'role', 'status', 'token_version', 'created_at'])
    .where('id', '=', p.id),
);
const CACHE_MAX = 50_000;

/**
 * Caches each user's role, status and token version, so an authenticated request needs no
 * database read. Any write that changes them calls `changed()` inside its transaction: the
 * NOTIFY reaches every server instance on commit, and this instance also drops its entry at once.
 */
export class AuthState {
  private readonly cache = new Map<string, AuthUser>();
  private listener: pg.Client | undefined;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly url: string,
    private readonly log: (msg: string) => void,
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url });
    const retry = () => {
      if (this.listener !== client) return;
      this.listener = undefined;
      // While disconnected we may miss notifications: forget everything.
      this.cache.clear();
      client.end().catch(() => {});
      if (!this.closed) setTimeout(() => void this.connect().catch(() => retry()), 1000).unref();
    };
    client.on('error', retry);
    client.on('end', retry);
    client.on('notification', (n) => {
      if (n.payload) this.cache.delete(n.payload);
    });
    this.listener = client;
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.cache.clear();
  }

  /** The cached entry, if any: lets the auth hook stay synchronous on the hot path. */
  peek(id: string): AuthUser | undefined {
    return this.cache.get(id);
  }

  async get(id: string): Promise<AuthUser | undefined> {
    const hit = this.cache.get(id);
    if (hit) return hit;
    const [row] = await userById.run(this.db, { id });
    if (!row) return undefined;
    const user: AuthUser = {
      id: row.id,
      email: row.email,
      name: row.name,
      role: row.role,
      status: row.status,
      tokenVersion: row.token_version,
      createdAt: row.created_at.toISOString(),
    };
    if (this.listener) {
      if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(id, user);
    }
    return user;
  }

  /** Call inside the transaction that changed the user's role, status, name or password. */
  async changed(tx: DbOrTx, id: string): Promise<void> {
    this.cache.delete(id);
    await sql`SELECT pg_notify(${CHANNEL}, ${id})`.execute(tx);
  }

  /** Call after that transaction committed (a read in between may have cached the old row). */
  forget(id: string): void {
    this.cache.delete(id);
  }

  async stop(): Promise<void> {
    this.closed = true;
    const l = this.listener;
    this.listener = undefined;
    await l?.end().catch(() => {});
  }
}

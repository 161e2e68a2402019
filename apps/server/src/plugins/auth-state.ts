import pg from 'pg';
import { twoFactorRequiredFor, type Role, type UserStatus } from '@herald/contract';
import type { Db, DbOrTx } from '../db/database.js';
import {
  ALL_USERS,
  findAuthUser,
  listenForChanges,
  notifyChanged,
  type AuthUserRow,
} from './auth-state.repo.js';

export type { AuthUserRow };

/** What a request knows about its caller: read from the database, never from the token. */
export interface AuthUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  status: UserStatus;
  tokenVersion: number;
  createdAt: string;
  /** Set by an Admin reset: the auth hook then admits only the password change. */
  mustChangePassword: boolean;
  twoFactorEnabled: boolean;
  /**
   * The Admin requires two-factor sign-in for the role and the user has none: the auth hook then
   * admits only the enrolment.
   */
  mustEnrolTwoFactor: boolean;
}

const CACHE_MAX = 50_000;

/** Reads one user's row; the database by default, a deferred one in a test of interleavings. */
export type AuthUserReader = (db: Db, id: string) => Promise<AuthUserRow | undefined>;
const readUser: AuthUserReader = findAuthUser;

/** A user's reads in flight and how many invalidations they have seen start under them. */
interface InFlight {
  reads: number;
  version: number;
}

/**
 * Caches each user's role, status and token version, so an authenticated request needs no
 * database read. Any write that changes them calls `changed()` inside its transaction: the
 * NOTIFY reaches every server instance on commit, and this instance also drops its entry at once.
 *
 * A read that started before an invalidation may end after it, holding the old row (a user
 * blocked meanwhile would stay logged in): each user's version, kept while reads of it are in
 * flight, and a version of the whole cache tell such a read not to store what it got.
 */
export class AuthState {
  private readonly cache = new Map<string, AuthUser>();
  private readonly inFlight = new Map<string, InFlight>();
  private cacheVersion = 0;
  private listener: pg.Client | undefined;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly url: string,
    private readonly log: (msg: string) => void,
    private readonly read: AuthUserReader = readUser,
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
      this.clear();
      client.end().catch(() => {});
      if (!this.closed) setTimeout(() => void this.connect().catch(() => retry()), 1000).unref();
    };
    client.on('error', retry);
    client.on('end', retry);
    client.on('notification', (n) => {
      if (n.payload) this.invalidate(n.payload);
    });
    this.listener = client;
    await client.connect();
    await listenForChanges(client);
    this.clear();
  }

  private invalidate(id: string): void {
    if (id === ALL_USERS) return this.clear();
    this.cache.delete(id);
    const reads = this.inFlight.get(id);
    if (reads) reads.version++;
  }

  private clear(): void {
    this.cache.clear();
    this.cacheVersion++;
  }

  /** The cached entry, if any: lets the auth hook stay synchronous on the hot path. */
  peek(id: string): AuthUser | undefined {
    return this.cache.get(id);
  }

  async get(id: string): Promise<AuthUser | undefined> {
    const hit = this.cache.get(id);
    if (hit) return hit;
    let reads = this.inFlight.get(id);
    if (!reads) this.inFlight.set(id, (reads = { reads: 0, version: 0 }));
    reads.reads++;
    const version = reads.version;
    const cacheVersion = this.cacheVersion;
    let row: AuthUserRow | undefined;
    try {
      row = await this.read(this.db, id);
    } finally {
      if (--reads.reads === 0) this.inFlight.delete(id);
    }
    if (!row) return undefined;
    const user: AuthUser = {
      id: row.id,
      email: row.email,
      name: row.name,
      role: row.role,
      status: row.status,
      tokenVersion: row.token_version,
      createdAt: row.created_at.toISOString(),
      mustChangePassword: row.must_change_password,
      twoFactorEnabled: row.two_factor_enabled,
      mustEnrolTwoFactor:
        !row.two_factor_enabled && twoFactorRequiredFor(row.role, row.require_two_factor ?? false),
    };
    // Invalidated while reading: the row may predate the change, so it answers this request only.
    const current = reads.version === version && this.cacheVersion === cacheVersion;
    if (this.listener && current) {
      if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(id, user);
    }
    return user;
  }

  /**
   * Call inside the transaction that changed the user's role, status, name, password or
   * must-change-password flag.
   */
  async changed(tx: DbOrTx, id: string): Promise<void> {
    this.invalidate(id);
    await notifyChanged(tx, id);
  }

  /** Call inside a transaction that changed what every user's entry depends on (a setting). */
  async changedAll(tx: DbOrTx): Promise<void> {
    this.clear();
    await notifyChanged(tx, ALL_USERS);
  }

  /** Call after that transaction committed (a read in between may have cached the old row). */
  forget(id: string): void {
    this.invalidate(id);
  }

  /** After a settings transaction committed: every entry may predate it. */
  forgetAll(): void {
    this.clear();
  }

  async stop(): Promise<void> {
    this.closed = true;
    const l = this.listener;
    this.listener = undefined;
    await l?.end().catch(() => {});
  }
}

import pg from 'pg';
import {
  LIVE_HEARTBEAT_MS,
  LIVE_STREAMS_PER_INSTANCE,
  LIVE_STREAMS_PER_USER,
  type LiveEventKind,
  type Role,
} from '@herald/contract';
import type { Db } from '../../db/database.js';
import { findTokenState, listenTo } from './live.repo.js';

/** Channels: the alerts triggers' (migration 0012) and auth-state's revocations. */
const LIVE_CHANNEL = 'herald_live';
const AUTH_CHANNEL = 'herald_auth';
/** A client this far behind (a stalled reader) is dropped rather than buffered without end. */
const MAX_BUFFERED_BYTES = 64 * 1024;
/** Waits before LISTENing again after a lost connection: doubling from the first to the most. */
const RECONNECT_FIRST_MS = 500;
const RECONNECT_MAX_MS = 10_000;

/** One open page: its user, the token version it authenticated with, and how to reach it. */
export interface LiveClient {
  userId: string;
  role: Role;
  tokenVersion: number;
  /** Writes one SSE frame; false when the client is too far behind and should go. */
  write(frame: string): boolean;
  /** Ends the stream (revoked, blocked, stalled, or the server is closing). */
  close(): void;
}

const isReseller = (role: Role) => role === 'Reseller' || role === 'Sub-Reseller';

export const eventFrame = (kind: LiveEventKind) =>
  `event: alert\ndata: ${JSON.stringify({ kind })}\n\n`;
const HEARTBEAT_FRAME = ': keep-alive\n\n';

/**
 * The instance's one LISTEN connection, fanned out to its open alert streams (not one per
 * client). A NOTIFY names only user ids or an audience; each stream gets an event saying which
 * list changed and its page reloads it through the normal routes. A revocation NOTIFY (a
 * blocked user, a changed password, a logout) re-reads that user's row and closes its streams
 * whose token no longer holds. The connection is opened with the first stream.
 */
export class LiveHub {
  private readonly byUser = new Map<string, Set<LiveClient>>();
  /** Every open stream, oldest first (a Set keeps insertion order). */
  private readonly all = new Set<LiveClient>();
  private listener: pg.Client | undefined;
  private starting: Promise<void> | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly url: string,
    private readonly log: (msg: string, err?: unknown) => void,
    private readonly heartbeatMs = LIVE_HEARTBEAT_MS,
    private readonly bounds = {
      perUser: LIVE_STREAMS_PER_USER,
      perInstance: LIVE_STREAMS_PER_INSTANCE,
    },
  ) {}

  get size(): number {
    return this.all.size;
  }

  /** Resolves once this instance LISTENs, so no event after it is missed. */
  ready(): Promise<void> {
    if (this.listener) return Promise.resolve();
    this.starting ??= this.connect().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /**
   * Takes a new stream. Past the user's bound or the instance's, the oldest stream (the user's,
   * or any) is closed first: a page left open longest reconnects, or falls back to polling.
   */
  add(client: LiveClient): () => void {
    let set = this.byUser.get(client.userId);
    if (!set) this.byUser.set(client.userId, (set = new Set()));
    while (set.size >= this.bounds.perUser) this.evict(set.values().next().value!);
    while (this.all.size >= this.bounds.perInstance) this.evict(this.all.values().next().value!);
    set.add(client);
    this.all.add(client);
    // A keepalive frame for this instance's open connections (per connection, not periodic
    // work): it runs while one is open and stops with the last (remove below).
    this.heartbeat ??= setInterval(() => this.broadcast(() => HEARTBEAT_FRAME), this.heartbeatMs);
    this.heartbeat.unref();
    return () => this.remove(client);
  }

  private evict(client: LiveClient): void {
    this.remove(client);
    client.close();
  }

  private remove(client: LiveClient): void {
    this.all.delete(client);
    const set = this.byUser.get(client.userId);
    if (!set?.delete(client)) return;
    if (set.size === 0) this.byUser.delete(client.userId);
    if (this.byUser.size === 0 && this.heartbeat) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    }
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    // A database host that drops packets fails the attempt instead of holding it for minutes.
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 10_000 });
    const lost = (err?: unknown) => {
      if (this.listener !== client) return;
      this.listener = undefined;
      this.log('live: LISTEN connection lost; reconnecting', err);
      client.end().catch(() => {});
      this.reconnect(0);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (n) => {
      if (n.channel === LIVE_CHANNEL && n.payload) this.dispatch(n.payload);
      else if (n.channel === AUTH_CHANNEL && n.payload) void this.recheck(n.payload);
    });
    try {
      await client.connect();
      await listenTo(client, [LIVE_CHANNEL, AUTH_CHANNEL]);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.listener = client;
  }

  /**
   * LISTENs again after a lost connection, with backoff while the database is away (killed or
   * restarting), then resyncs the open pages. With no page open it waits: the next stream's
   * `ready()` connects.
   */
  private reconnect(attempt: number): void {
    if (this.closed || this.size === 0) return;
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** attempt);
    setTimeout(() => {
      if (this.closed) return;
      // A stream opened meanwhile connected: the pages open since the loss still resync.
      if (this.listener) return void this.resync();
      void this.ready().then(
        () => this.resync(),
        (err: unknown) => {
          this.log('live: LISTEN reconnect failed; trying again', err);
          this.reconnect(attempt + 1);
        },
      );
    }, delay).unref();
  }

  /** After a lost connection events may have been missed: every page reloads, every token is checked. */
  private async resync(): Promise<void> {
    this.broadcast(
      () => eventFrame('notifications') + eventFrame('announcements') + eventFrame('campaigns'),
    );
    for (const userId of [...this.byUser.keys()]) await this.recheck(userId);
  }

  /**
   * `n:<user>`, `a:<user>`, `a:all`, `a:reseller` or `a:*` (migration 0012), or
   * `c:<user>,<user>,...` (campaign-progress.ts: a campaign's owner and the users above it).
   */
  private dispatch(payload: string): void {
    const [kind, target] = payload.split(':', 2);
    if (kind === 'c' && target) {
      this.dispatchCampaigns(target.split(','));
      return;
    }
    const event: LiveEventKind | undefined =
      kind === 'n' ? 'notifications' : kind === 'a' ? 'announcements' : undefined;
    if (!event || !target) return;
    const frame = eventFrame(event);
    if (target === 'all' || target === '*') this.broadcast(() => frame);
    else if (target === 'reseller') this.broadcast((c) => (isReseller(c.role) ? frame : null));
    else for (const c of [...(this.byUser.get(target) ?? [])]) this.send(c, frame);
  }

  /** To the named users' streams and to every Admin's, each stream once. */
  private dispatchCampaigns(userIds: readonly string[]): void {
    const frame = eventFrame('campaigns');
    const named = new Set(userIds);
    this.broadcast((c) => (c.role === 'Admin' || named.has(c.userId) ? frame : null));
  }

  private broadcast(frameFor: (c: LiveClient) => string | null): void {
    for (const set of [...this.byUser.values()]) {
      for (const c of [...set]) {
        const frame = frameFor(c);
        if (frame) this.send(c, frame);
      }
    }
  }

  private send(c: LiveClient, frame: string): void {
    if (!c.write(frame)) this.evict(c);
  }

  /** Closes the user's streams whose token a block, password change or logout revoked. */
  private async recheck(userId: string): Promise<void> {
    const clients = this.byUser.get(userId);
    if (!clients?.size) return;
    let row: { status: string; token_version: number; role: Role } | undefined;
    try {
      row = await findTokenState(this.db, userId);
    } catch (err) {
      // Unsure whether the token still holds: end the streams; the page reconnects and is checked.
      this.log('live: could not re-read a user after a revocation', err);
      row = undefined;
    }
    for (const c of [...clients]) {
      if (!row || row.status !== 'Active' || row.token_version !== c.tokenVersion) {
        this.evict(c);
      } else {
        c.role = row.role;
      }
    }
  }

  async stop(): Promise<void> {
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    for (const set of [...this.byUser.values()]) for (const c of [...set]) c.close();
    this.byUser.clear();
    this.all.clear();
    await this.starting?.catch(() => {});
    const l = this.listener;
    this.listener = undefined;
    await l?.end().catch(() => {});
  }
}

/** Whether a writable stream still keeps up (used by the route's `write`). */
export function keepsUp(buffered: number): boolean {
  return buffered <= MAX_BUFFERED_BYTES;
}

import { randomInt } from 'node:crypto';
import pg from 'pg';
import { forgetClaims, tryPresenceLock } from './presence.repo.js';

/**
 * Whether the instance that claimed a recipient is still alive (a restart after kill -9 resumes
 * at once, and duplicates stay within the sends in flight). Each claim records a key;
 * while this instance has claimed rows that are unwritten, a PostgreSQL session of its own
 * holds the advisory lock (PRESENCE_LOCK_SPACE, key). The lock lives exactly as long as that
 * session: when the process dies (kill -9 included) the kernel closes its socket, the backend
 * ends and the lock is gone at once, so other instances, or this one restarted, take the rows
 * of a key nobody holds at once (dispatch-progress.repo.ts releaseOrphans); claimed rows hold
 * no lease at all. The other mechanism, the watchdog's heartbeat (delivery-tasks.ts), covers a
 * campaign whose sending stopped with nothing in flight: docs/delivery.md, Dead instances. A lost session is never re-joined under the same key: the slices that
 * claimed under it stop sending, so rows released to others are sent by them only. Claims
 * record (campaign, key) in `dispatch_claimers`; a session closing after every slice wrote
 * all its rows deletes its key's pairs, so only a key that died with rows in flight leads
 * releaseOrphans to read a campaign's rows.
 *
 * The session is opened by the first slice that enters and closed when the last one leaves
 * (after its writes landed): the runner's lifecycle needs no extra hook, and a test app that
 * sends nothing opens nothing.
 */

export class DispatchPresence {
  private users = 0;
  private client: pg.Client | null = null;
  private key: number | null = null;
  /** Whether a slice left rows of this key unwritten: its claims stay on record then. */
  private unwritten = false;
  /** Opening or closing the session, one at a time. */
  private busy: Promise<unknown> = Promise.resolve();

  constructor(private readonly databaseUrl: string) {}

  /**
   * A slice starts: resolves with the key to claim under (held by this instance's session).
   * Every enter is followed by one leave, once the rows claimed under the key are written.
   */
  async enter(): Promise<number> {
    this.users++;
    try {
      return await this.serial(() => this.open());
    } catch (err) {
      void this.leave();
      throw err;
    }
  }

  /**
   * A slice ended; the last one out closes the session (resolves when it is closed; it never
   * rejects). `written`: every row the slice claimed under the key had its result written.
   * Only when all did are the key's claims taken off the record on closing (no row left to
   * give back); otherwise the rows are found and given back once the key is gone.
   */
  leave(written = false): Promise<void> {
    if (!written) this.unwritten = true;
    this.users--;
    if (this.users > 0) return Promise.resolve();
    return this.serial(() => this.close()).catch(() => {});
  }

  /** Whether rows claimed under `key` are still this instance's to send. */
  holds(key: number): boolean {
    return this.key === key;
  }

  private serial<T>(step: () => Promise<T>): Promise<T> {
    const next = this.busy.then(step, step);
    this.busy = next.catch(() => {});
    return next;
  }

  private async open(): Promise<number> {
    if (this.key !== null) return this.key;
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      application_name: 'herald-dispatch-presence',
      connectionTimeoutMillis: 5000,
    });
    // A lost session (PostgreSQL restarted, the connection cut) gives up the key for good.
    const lost = () => {
      if (this.client === client) {
        this.client = null;
        this.key = null;
      }
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    try {
      for (;;) {
        const key = randomInt(1, 2 ** 31 - 1);
        if (await tryPresenceLock(client, key)) {
          this.client = client;
          this.key = key;
          this.unwritten = false;
          return key;
        }
      }
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
  }

  private async close(): Promise<void> {
    if (this.users > 0 || !this.client) return;
    const client = this.client;
    const key = this.key;
    this.client = null;
    this.key = null;
    try {
      // Still holding the lock: no claim under the key can be running or start now.
      if (!this.unwritten && key !== null) await forgetClaims(client, key);
    } finally {
      await client.end();
    }
  }
}

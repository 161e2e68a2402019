import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/database.js';
import { ScratchPostgres } from '../../../test/scratch-postgres.js';
import { waitFor } from '../../../test/server-process.js';
import { LiveHub, eventFrame, type LiveClient } from './live-hub.js';

/**
 * The hub's LISTEN connection outlives a kill -9 of PostgreSQL: while the database is away
 * its reconnects fail and it keeps trying with backoff (it used to try once and give up, so
 * open pages heard nothing more until a new page opened a stream); once the database is back
 * it LISTENs again, tells every page to reload what it may have missed, and passes on events.
 */
const USER_ID = '6f1c2a1e-8d0b-4c36-9a4e-2b3f3f6d9a01';

let scratch: ScratchPostgres;
let database: DatabaseHandle;
beforeAll(async () => {
  scratch = await ScratchPostgres.create();
  const setup = new pg.Client({ connectionString: scratch.url() });
  await setup.connect();
  // The columns the hub re-reads after a reconnect (its users table is the app's).
  await setup.query(`CREATE TABLE users (id uuid PRIMARY KEY, status text NOT NULL,
    token_version integer NOT NULL, role text NOT NULL)`);
  await setup.query(`INSERT INTO users VALUES ($1, 'Active', 1, 'Admin')`, [USER_ID]);
  await setup.end();
  database = openDatabase(scratch.url(), 2);
}, 120_000);
afterAll(async () => {
  await database?.close();
  await scratch?.destroy();
});

async function notify(payload: string): Promise<void> {
  const c = new pg.Client({ connectionString: scratch.url() });
  await c.connect();
  await c.query(`SELECT pg_notify('herald_live', $1)`, [payload]);
  await c.end();
}

describe('LiveHub across a PostgreSQL restart', () => {
  it('keeps reconnecting while the database is down, then resyncs and delivers again', async () => {
    const logged: string[] = [];
    const hub = new LiveHub(database.db, scratch.url(), (m) => logged.push(m), 3_600_000);
    const frames: string[] = [];
    const heard = (kind: 'notifications' | 'campaigns') =>
      frames.some((f) => f.includes(eventFrame(kind)));
    let closed = false;
    const client: LiveClient = {
      userId: USER_ID,
      role: 'Admin',
      tokenVersion: 1,
      write: (frame) => frames.push(frame) > 0,
      close: () => (closed = true),
    };
    hub.add(client);
    try {
      await hub.ready();
      await notify(`n:${USER_ID}`);
      await waitFor('the first event', async () => heard('notifications'));

      await scratch.kill9();
      await waitFor('the hub saw the loss', async () =>
        logged.some((m) => m.includes('connection lost')),
      );
      // Down for a few seconds, as a restart takes: reconnects in that time fail.
      await new Promise((r) => setTimeout(r, 3000));
      frames.length = 0;
      await scratch.start();

      // Back: every page is told to reload (events may have been missed), and stays open.
      await waitFor('the resync', async () => heard('campaigns'));
      expect(closed).toBe(false);
      frames.length = 0;
      await notify(`c:${USER_ID}`);
      await waitFor('an event after the restart', async () => heard('campaigns'));
      expect(closed).toBe(false);
    } finally {
      await hub.stop();
    }
  }, 120_000);
});

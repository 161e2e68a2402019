import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import type { Db } from '../db/database.js';
import { AuthState, type AuthUserReader } from './auth-state.js';
import { findAuthUser } from './auth-state.repo.js';

let t: TestApp;
let userId: string;
beforeAll(async () => {
  t = await createTestApp();
  const { user } = await t.createUser(await t.adminToken(), { role: 'User' });
  userId = user._id;
});
afterAll(() => t.close());

/** A promise and the function that settles it, to hold a read back until the test says so. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** The reader the app uses (auth-state.repo.ts), wrapped by the tests that hold it back. */
const realRead: AuthUserReader = findAuthUser;

/** Sets the user's status the way a service does: in a transaction that calls `changed`. */
async function setStatus(db: Db, state: AuthState, status: 'Active' | 'Blocked'): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.updateTable('users').set({ status }).where('id', '=', userId).execute();
    await state.changed(tx, userId);
  });
  state.forget(userId);
}

describe('AuthState', () => {
  it('does not cache a row read before a block that lands while the read is in flight', async () => {
    const gate = deferred();
    let hold = false;
    const state = new AuthState(
      t.db,
      t.databaseUrl,
      () => {},
      async (db, id) => {
        const row = await realRead(db, id);
        if (hold) await gate.promise;
        return row;
      },
    );
    await state.start();
    try {
      hold = true;
      // The read sees the user Active, then waits while the block commits.
      const inFlight = state.get(userId);
      await new Promise((r) => setTimeout(r, 50));
      await setStatus(t.db, state, 'Blocked');
      gate.resolve();
      expect((await inFlight)?.status).toBe('Active');
      // The old row answered the request that read it, but was not kept for the next ones.
      expect(state.peek(userId)).toBeUndefined();
      hold = false;
      expect((await state.get(userId))?.status).toBe('Blocked');
    } finally {
      await state.stop();
      await setStatus(t.db, state, 'Active');
    }
  });

  it('still caches a read that no change overlapped', async () => {
    const state = new AuthState(t.db, t.databaseUrl, () => {}, realRead);
    await state.start();
    try {
      expect(state.peek(userId)).toBeUndefined();
      await state.get(userId);
      expect(state.peek(userId)?.status).toBe('Active');
    } finally {
      await state.stop();
    }
  });
});

import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.js';
import { LiveHub, type LiveClient } from './live-hub.js';

/**
 * One token cannot hold thousands of sockets: past the user's bound or the instance's, the
 * oldest stream is closed to make room (docs/product.md, Announcements and alerts).
 */
function stream(userId: string, closed: string[], name: string): LiveClient {
  return {
    userId,
    role: 'User',
    tokenVersion: 1,
    write: () => true,
    close: () => closed.push(name),
  };
}

// add() and the bounds touch neither the database nor the LISTEN connection.
const hubWith = (perUser: number, perInstance: number) =>
  new LiveHub({} as Db, 'postgres://unused', () => {}, 3_600_000, { perUser, perInstance });

describe('LiveHub bounds', () => {
  it("closes a user's oldest stream past its bound, leaving other users alone", async () => {
    const closed: string[] = [];
    const hub = hubWith(3, 100);
    hub.add(stream('u2', closed, 'other'));
    for (let i = 1; i <= 5; i++) hub.add(stream('u1', closed, `u1-${i}`));
    expect(closed).toEqual(['u1-1', 'u1-2']);
    expect(hub.size).toBe(4);
    await hub.stop();
  });

  it('closes the oldest stream of anyone past the instance bound', async () => {
    const closed: string[] = [];
    const hub = hubWith(10, 4);
    for (let i = 1; i <= 6; i++) hub.add(stream(`user-${i}`, closed, `s${i}`));
    expect(closed).toEqual(['s1', 's2']);
    expect(hub.size).toBe(4);
    await hub.stop();
  });

  it('a removed stream frees its place', async () => {
    const closed: string[] = [];
    const hub = hubWith(2, 100);
    const remove = hub.add(stream('u1', closed, 'a'));
    remove();
    hub.add(stream('u1', closed, 'b'));
    hub.add(stream('u1', closed, 'c'));
    expect(closed).toEqual([]);
    await hub.stop();
  });
});

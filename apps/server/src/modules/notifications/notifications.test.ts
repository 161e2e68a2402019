import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as msg, type NotificationList } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { notifyUsers } from './notifications.service.js';

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  // Three for U1, one for U2, each its own transaction so they are ordered.
  for (const [i, ids] of [[h.u1.user.id, h.u2.user.id], [h.u1.user.id], [h.u1.user.id]].entries()) {
    await t.db
      .transaction()
      .execute((tx) =>
        notifyUsers(tx, ids, { eventType: 'credits', message: `m${i}`, link: '/history' }),
      );
  }
});
afterAll(() => t.close());

async function list(token: string | undefined, query = '') {
  return t.request({ method: 'GET', url: `/api/notifications${query}`, token });
}
async function mine(token: string, query = ''): Promise<NotificationList> {
  const res = await list(token, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<NotificationList>();
}
const read = (token: string, id: string) =>
  t.request({ method: 'PUT', url: `/api/notifications/${id}/read`, token });

describe('GET /api/notifications', () => {
  it("lists only the caller's own, newest first, with the unread count", async () => {
    const u1 = await mine(h.u1.token);
    expect(u1.notifications.map((n) => n.message)).toEqual(['m2', 'm1', 'm0']);
    expect(u1.notifications.every((n) => !n.read && n.link === '/history')).toBe(true);
    expect(u1.unreadCount).toBe(3);
    expect(u1.nextCursor).toBeNull();
    const u2 = await mine(h.u2.token);
    expect(u2.notifications.map((n) => n.message)).toEqual(['m0']);
    expect((await mine(h.r1.token)).notifications).toEqual([]);
  });

  it('pages by keyset cursor', async () => {
    const first = await mine(h.u1.token, '?limit=2');
    expect(first.notifications.map((n) => n.message)).toEqual(['m2', 'm1']);
    expect(first.nextCursor).toMatch(/^\d+$/);
    const second = await mine(h.u1.token, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.notifications.map((n) => n.message)).toEqual(['m0']);
    expect(second.nextCursor).toBeNull();
  });

  it('refuses a bad limit or cursor with 400 and an anonymous caller with 401', async () => {
    for (const q of [
      '?limit=0',
      '?limit=201',
      '?cursor=abc',
      '?cursor=99999999999999999999',
      '?unread=1',
    ]) {
      const res = await list(h.u1.token, q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json<{ message: string }>().message).toBeTruthy();
    }
    expect((await list(h.u1.token, '?limit=0')).json()).toEqual({ message: msg.pageLimit(200) });
    expect((await list(undefined)).statusCode).toBe(401);
  });
});

describe('PUT /api/notifications/{id}/read and /read-all', () => {
  it("marks the caller's own read; another's or an unknown id answers 404 and changes nothing", async () => {
    const [newest] = (await mine(h.u1.token)).notifications;
    const u2note = (await mine(h.u2.token)).notifications[0]!;

    const other = await read(h.u1.token, u2note._id);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ message: msg.notificationNotFound });
    expect((await read(h.admin, u2note._id)).statusCode).toBe(404);
    expect((await mine(h.u2.token)).unreadCount).toBe(1);
    expect((await read(h.u1.token, randomUUID())).statusCode).toBe(404);

    expect((await read(h.u1.token, newest!._id)).statusCode).toBe(204);
    expect((await read(h.u1.token, newest!._id)).statusCode).toBe(204);
    const after = await mine(h.u1.token);
    expect(after.unreadCount).toBe(2);
    expect(after.notifications.map((n) => n.read)).toEqual([true, false, false]);
    const unread = await mine(h.u1.token, '?unread=true');
    expect(unread.notifications.map((n) => n.message)).toEqual(['m1', 'm0']);
    expect((await read('', newest!._id)).statusCode).toBe(401);
  });

  it("read-all marks every one of the caller's read and no one else's", async () => {
    const res = await t.request({
      method: 'PUT',
      url: '/api/notifications/read-all',
      token: h.u1.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: msg.notificationsAllRead });
    const u1 = await mine(h.u1.token);
    expect(u1.unreadCount).toBe(0);
    expect(u1.notifications.every((n) => n.read)).toBe(true);
    expect((await mine(h.u2.token)).unreadCount).toBe(1);
  });
});

describe('the unread count at scale', () => {
  const planOf = (query: ReturnType<typeof sql>) =>
    t.db.transaction().execute(async (tx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(tx);
      const rows = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${query}`.execute(tx);
      return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
    });

  it('count and unread list are answered from the partial unread index', async () => {
    const id = h.u1.user.id;
    const count = await planOf(
      sql`SELECT count(*) FROM notifications WHERE user_id = ${id} AND read_at IS NULL`,
    );
    expect(count).toContain('notifications_unread_idx');
    const list = await planOf(sql`SELECT id FROM notifications
      WHERE user_id = ${id} AND read_at IS NULL ORDER BY seq DESC LIMIT 51`);
    expect(list).toContain('notifications_unread_idx');
    expect(list).not.toContain('Sort');
  });
});

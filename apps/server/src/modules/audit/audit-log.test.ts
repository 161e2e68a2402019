import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditMessages as m,
  AUDIT_LOG_PAGE_MAX,
  type AuditLogReply,
  type AuditAction,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { recordAudit, type AuditActor } from './index.js';

/**
 * GET /api/audit-log (docs/audit.md, The Audit Log screen): who sees which entries, the
 * filters, keyset paging, and IP and user agent withheld for actors outside the viewer's subtree.
 */

let t: TestApp;
let admin: string;
let adminUser: { id: string; email: string };
type Made = Awaited<ReturnType<TestApp['createUser']>>;
let reseller: Made;
let child: Made;
let otherReseller: Made;
let user: Made;
/**
 * When the fixtures' own entries begin: signing in and creating the users above write entries
 * too, and the tests look only at the ones they wrote.
 */
let since: string;

/** The query with `from=since` unless it names a time range of its own. */
function fromSince(query: string): string {
  if (/[?&](from|to)=[^&]/.test(query)) return query;
  return `${query}${query ? '&' : '?'}from=${encodeURIComponent(since)}`;
}

const actor = (u: { id: string; email: string }, role: AuditActor['role']): AuditActor => ({
  userId: u.id,
  apiKeyId: null,
  label: u.email,
  role,
  ip: '203.0.113.7',
  userAgent: 'Firefox/1',
});

async function write(
  by: AuditActor,
  action: AuditAction,
  subject: { id: string; email: string } | null,
  changes?: Record<string, { before: string | number; after: string | number }>,
) {
  await recordAudit(t.db, {
    actor: by,
    action,
    target: subject
      ? { type: 'user', id: subject.id, label: subject.email, subjectUserId: subject.id }
      : { type: 'routing', id: null, label: null, subjectUserId: null },
    changes,
  });
}

const list = async (token: string, query = '') => {
  const res = await t.request({ method: 'GET', url: `/api/audit-log${fromSince(query)}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AuditLogReply>();
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  const row = await t.db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('role', '=', 'Admin')
    .executeTakeFirstOrThrow();
  adminUser = row;
  reseller = await t.createUser(admin, { role: 'Reseller' });
  child = await t.createUser(reseller.token, { role: 'User' });
  otherReseller = await t.createUser(admin, { role: 'Reseller' });
  user = await t.createUser(admin, { role: 'User' });
  const now = await sql<{ at: Date }>`SELECT clock_timestamp() AS at`.execute(t.db);
  since = now.rows[0]!.at.toISOString();
  // In order: ids grow with each.
  await write(actor(adminUser, 'Admin'), 'routing.update', null);
  await write(actor(reseller.user, 'Reseller'), 'credits.add', child.user, {
    balance: { before: 0, after: 10 },
  });
  await write(actor(adminUser, 'Admin'), 'user.block', child.user, {
    status: { before: 'Active', after: 'Blocked' },
  });
  await write(actor(otherReseller.user, 'Reseller'), 'credits.remove', otherReseller.user);
  await write(actor(user.user, 'User'), 'api_key.create', user.user);
});
afterAll(() => t.close());

describe('GET /api/audit-log', () => {
  it('shows the Admin every entry, newest first, with IP and user agent', async () => {
    const page = await list(admin);
    expect(page.entries.map((e) => e.action)).toEqual([
      'api_key.create',
      'credits.remove',
      'user.block',
      'credits.add',
      'routing.update',
    ]);
    const block = page.entries[2]!;
    expect(block).toMatchObject({
      actor: { userId: adminUser.id, label: adminUser.email, role: 'Admin', apiKeyId: null },
      ip: '203.0.113.7',
      userAgent: 'Firefox/1',
      originHidden: false,
      target: { type: 'user', id: child.user.id, label: child.user.email },
      subjectUserId: child.user.id,
      changes: { status: { before: 'Active', after: 'Blocked' } },
    });
    expect(page.nextCursor).toBeNull();
  });

  it("shows a Reseller its subtree's entries, hiding the origin of an actor above it", async () => {
    const page = await list(reseller.token);
    expect(page.entries.map((e) => e.action)).toEqual(['user.block', 'credits.add']);
    const [block, add] = page.entries;
    expect(block).toMatchObject({ ip: null, userAgent: null, originHidden: true });
    expect(add).toMatchObject({ ip: '203.0.113.7', userAgent: 'Firefox/1', originHidden: false });
    // Another reseller's entries are not in view.
    const other = await list(otherReseller.token);
    expect(other.entries.map((e) => e.action)).toEqual(['credits.remove']);
  });

  it('shows a User only the entries it did or that were done to it', async () => {
    const page = await list(user.token);
    expect(page.entries.map((e) => e.action)).toEqual(['api_key.create']);
    const childPage = await list(child.token);
    expect(childPage.entries.map((e) => e.action)).toEqual(['user.block', 'credits.add']);
    // The Reseller above it acted: the child does not see where the Reseller was.
    expect(childPage.entries[1]).toMatchObject({ ip: null, originHidden: true });
  });

  it('filters by action, area, actor and target', async () => {
    const actions = async (q: string) => (await list(admin, q)).entries.map((e) => e.action);
    expect(await actions('?action=credits.add')).toEqual(['credits.add']);
    expect(await actions('?action=credits')).toEqual(['credits.remove', 'credits.add']);
    expect(await actions(`?actor=${adminUser.id}`)).toEqual(['user.block', 'routing.update']);
    expect(
      await actions(`?actor=${encodeURIComponent(reseller.user.email.toUpperCase())}`),
    ).toEqual(['credits.add']);
    expect(await actions('?targetType=routing')).toEqual(['routing.update']);
    expect(await actions(`?target=${child.user.id}`)).toEqual(['user.block', 'credits.add']);
    expect(
      await actions(`?targetType=user&target=${encodeURIComponent(child.user.email.slice(0, 8))}`),
    ).toEqual(['user.block', 'credits.add']);
    expect(await actions('?actor=%25')).toEqual([]); // a wildcard is taken literally
    expect(await actions('?action=&actor=&target=&to=')).toHaveLength(5);
  });

  it('pages with the before cursor', async () => {
    const first = await list(admin, '?limit=2');
    expect(first.entries.map((e) => e.action)).toEqual(['api_key.create', 'credits.remove']);
    expect(first.nextCursor).toBe(first.entries[1]!.id);
    const second = await list(admin, `?limit=2&before=${first.nextCursor}`);
    expect(second.entries.map((e) => e.action)).toEqual(['user.block', 'credits.add']);
    const third = await list(admin, `?limit=2&before=${second.nextCursor}`);
    expect(third.entries.map((e) => e.action)).toEqual(['routing.update']);
    expect(third.nextCursor).toBeNull();
  });

  it('refuses an unknown action, a reversed range, a bad date or cursor, a page too large', async () => {
    const bad = async (q: string, message?: string) => {
      const res = await t.request({ method: 'GET', url: `/api/audit-log${q}`, token: admin });
      expect(res.statusCode, q).toBe(400);
      if (message) expect(res.json()).toEqual({ message });
    };
    await bad('?action=credits.steal', m.filterActionInvalid);
    await bad('?action=cred', m.filterActionInvalid);
    await bad('?targetType=planet', m.filterTargetTypeInvalid);
    await bad('?from=yesterday', m.filterDateInvalid);
    await bad('?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', m.filterRangeInvalid);
    await bad('?before=9223372036854775808');
    await bad(`?limit=${AUDIT_LOG_PAGE_MAX + 1}`);
  });

  it('filters by time: from inclusive, to exclusive', async () => {
    // Last: an entry of an earlier day (written as a migration or import would, with its time).
    await sql`
      INSERT INTO audit_log (at, actor_label, action, target_type, scope)
      VALUES ('2025-06-01T10:00:00Z', 'Herald', 'cleanup.run', 'cleanup', '{}')`.execute(t.db);
    const actions = async (q: string) => (await list(admin, q)).entries.map((e) => e.action);
    expect(await actions('?from=2025-05-01T00:00:00Z&to=2025-07-01T00:00:00%2B02:00')).toEqual([
      'cleanup.run',
    ]);
    expect(await actions('?to=2025-06-01T10:00:00Z')).toEqual([]);
    expect(await actions('?from=2025-06-01T10:00:00Z&to=2025-06-01T10:00:00.001Z')).toEqual([
      'cleanup.run',
    ]);
    expect(await actions(`?from=${encodeURIComponent(since)}`)).toHaveLength(5);
    expect(await actions('?from=2025-07-01T00:00:00Z')).not.toContain('cleanup.run');
  });

  it('answers 401 without a session', async () => {
    const res = await t.request({ method: 'GET', url: '/api/audit-log' });
    expect(res.statusCode).toBe(401);
  });
});

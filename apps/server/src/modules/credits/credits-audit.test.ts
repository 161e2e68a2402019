import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { auditRows, lastAuditId, onlyAuditRow, adminUserId } from '../audit/audit.test-fixtures.js';
import { NORMAL, creditBody, postCredit } from './credits.test-fixtures.js';

let t: TestApp;
let h: Hierarchy;
let adminId: string;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  adminId = await adminUserId(t.db);
});
afterAll(() => t.close());

describe('credits in the audit log', () => {
  it("an Admin's mint is one credits.add on the target, with the balance before and after", async () => {
    const since = await lastAuditId(t.db);
    const res = await postCredit(t, h.admin, creditBody(h.r1.user.email, { count: 40 }));
    expect(res.statusCode, res.body).toBe(201);
    const row = await onlyAuditRow(t.db, { since });
    expect(row).toMatchObject({
      action: 'credits.add',
      actor_user_id: adminId,
      actor_label: ADMIN_EMAIL,
      actor_role: 'Admin',
      target_type: 'user',
      target_id: h.r1.user.id,
      target_label: h.r1.user.email,
      subject_user_id: h.r1.user.id,
    });
    expect(row.changes).toEqual({
      creditType: { before: null, after: NORMAL },
      amount: { before: null, after: 40 },
      balance: { before: 0, after: 40 },
    });
  });

  it("a Reseller's transfer and take-back name the child, with its reason", async () => {
    let since = await lastAuditId(t.db);
    const give = await postCredit(t, h.r1.token, creditBody(h.u2.user.email, { count: 10 }));
    expect(give.statusCode, give.body).toBe(201);
    const added = await onlyAuditRow(t.db, { since });
    expect(added).toMatchObject({
      action: 'credits.add',
      actor_user_id: h.r1.user.id,
      actor_role: 'Reseller',
      target_id: h.u2.user.id,
      subject_user_id: h.u2.user.id,
    });
    expect(added.changes?.balance).toEqual({ before: 0, after: 10 });

    since = await lastAuditId(t.db);
    const take = await postCredit(
      t,
      h.r1.token,
      creditBody(h.u2.user.email, { count: 4, type: 'Removed', reason: 'Overpaid' }),
    );
    expect(take.statusCode, take.body).toBe(201);
    const removed = await onlyAuditRow(t.db, { since });
    expect(removed).toMatchObject({ action: 'credits.remove', target_id: h.u2.user.id });
    expect(removed.changes).toEqual({
      creditType: { before: null, after: NORMAL },
      amount: { before: null, after: 4 },
      balance: { before: 10, after: 6 },
      reason: { before: null, after: 'Overpaid' },
    });
  });

  it("an Admin's burn is one credits.remove", async () => {
    const since = await lastAuditId(t.db);
    const res = await postCredit(
      t,
      h.admin,
      creditBody(h.r1.user.email, { count: 5, type: 'Removed' }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const row = await onlyAuditRow(t.db, { since });
    expect(row).toMatchObject({ action: 'credits.remove', target_id: h.r1.user.id });
    // 40 minted, 10 given to U2 and 4 taken back.
    expect(row.changes?.balance).toEqual({ before: 34, after: 29 });
  });

  it('a refused move writes nothing: short balance, outside the scope, invalid, forbidden', async () => {
    const since = await lastAuditId(t.db);
    const short = await postCredit(t, h.r2.token, creditBody(h.u3.user.email, { count: 999 }));
    expect(short.statusCode).toBe(409);
    const outside = await postCredit(t, h.r2.token, creditBody(h.u1.user.email));
    expect(outside.statusCode).toBe(404);
    const invalid = await postCredit(t, h.admin, creditBody(h.u1.user.email, { count: -1 }));
    expect(invalid.statusCode).toBe(400);
    const user = await postCredit(t, h.u1.token, creditBody(h.u2.user.email));
    expect(user.statusCode).toBe(403);
    expect(await auditRows(t.db, { since })).toEqual([]);
  });

  it('an idempotent replay writes no second entry', async () => {
    const since = await lastAuditId(t.db);
    const body = creditBody(h.u3.user.email, { count: 2 });
    const first = await postCredit(t, h.admin, body, 'audit-credit-replay');
    const again = await postCredit(t, h.admin, body, 'audit-credit-replay');
    expect(first.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await auditRows(t.db, { since })).toHaveLength(1);
  });
});

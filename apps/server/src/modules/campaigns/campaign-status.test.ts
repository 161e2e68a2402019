import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as msg, type CampaignReply } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import {
  balanceOf,
  creditBody,
  ledgerViolations,
  postCredit,
} from '../credits/credits.test-fixtures.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import {
  HELLO,
  NORMAL,
  campaignRow,
  createCampaign,
  entriesOf,
  messageOf,
  notificationsOf,
  numbers,
  putStatus,
  setStatus,
} from './campaign-actions.test-fixtures.js';
import { lockVisibleCampaign } from './campaign-access.js';
import { fund } from './campaigns.test-fixtures.js';

let t: TestApp;
let h: Hierarchy;
let adminId: string;
beforeAll(async () => {
  // The manual path: with automatic dispatch on, Approved would become Processing at once.
  t = await createTestApp({ DELIVERY_DISPATCH: 'off' });
  h = await buildHierarchy(t);
  await fund(t, h.admin, h.u1.user.email, NORMAL, 100);
  await fund(t, h.admin, h.u3.user.email, NORMAL, 100);
  const admin = await t.db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'Admin')
    .executeTakeFirstOrThrow();
  adminId = admin.id;
});
afterAll(() => t.close());

describe('PUT /api/campaigns/status/:id: who may do what', () => {
  it('needs a login (401) and a known status (400)', async () => {
    const id = await createCampaign(t, h.u1.token, numbers(1));
    expect((await putStatus(t, undefined, id, 'Approved')).statusCode).toBe(401);
    const bad = await putStatus(t, h.admin, id, 'Shipped');
    expect([bad.statusCode, messageOf(bad)]).toEqual([400, 'Choose a campaign status.']);
    const extra = await t.request({
      method: 'PUT',
      url: `/api/campaigns/status/${id}`,
      token: h.admin,
      payload: { status: 'Approved', charged: false },
    });
    expect(extra.statusCode).toBe(400);
    expect((await campaignRow(t, id)).status).toBe('Submitted');
  });

  it('Admin sets any status and the owner is notified every time', async () => {
    const id = await createCampaign(t, h.u1.token, numbers(1));
    const before = (await notificationsOf(t, h.u1.user.id)).length;
    for (const status of ['Pending Approval', 'Approved', 'Processing', 'Completed'] as const) {
      const res = await putStatus(t, h.admin, id, status);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<CampaignReply>();
      expect(body.message).toBe(msg.campaignStatusUpdated(status));
      expect(body.campaign).toMatchObject({ _id: id, status, recipientCount: 1 });
    }
    const notes = (await notificationsOf(t, h.u1.user.id)).slice(before);
    expect(notes).toEqual(
      ['Pending Approval', 'Approved', 'Processing', 'Completed'].map((s) => ({
        event_type: 'campaign_status',
        message: msg.notifyCampaignStatus(HELLO, s),
        link: `/campaigns?open=${id}`,
      })),
    );
  });

  it('Change Status to Rejected may carry the reason the owner reads; no other status may', async () => {
    const id = await createCampaign(t, h.u1.token, numbers(1));
    await setStatus(t, h.admin, id, 'Approved');
    const put = (payload: object) =>
      t.request({ method: 'PUT', url: `/api/campaigns/status/${id}`, token: h.admin, payload });
    const stray = await put({ status: 'Processing', reason: 'no' });
    expect([stray.statusCode, messageOf(stray)]).toEqual([400, msg.reasonOnlyForRejected]);
    const long = await put({ status: 'Rejected', reason: 'x'.repeat(501) });
    expect([long.statusCode, messageOf(long)]).toEqual([400, msg.rejectReasonTooLong]);
    expect((await campaignRow(t, id)).status).toBe('Approved');

    const before = (await notificationsOf(t, h.u1.user.id)).length;
    const res = await put({ status: 'Rejected', reason: '  Wrong sender name. ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<CampaignReply>().campaign).toMatchObject({
      status: 'Rejected',
      rejectionReason: 'Wrong sender name.',
    });
    expect((await notificationsOf(t, h.u1.user.id)).slice(before)).toEqual([
      {
        event_type: 'campaign_status',
        message: msg.notifyCampaignRejected(HELLO, 'Wrong sender name.'),
        link: `/campaigns?open=${id}`,
      },
    ]);
  });

  it('the same status again is 409 and changes nothing', async () => {
    const id = await createCampaign(t, h.u1.token, numbers(1));
    const res = await putStatus(t, h.admin, id, 'Submitted');
    expect([res.statusCode, messageOf(res)]).toEqual([
      409,
      msg.campaignStatusUnchanged('Submitted'),
    ]);
  });

  it('unknown and out-of-scope ids are 404 for every role', async () => {
    const id = await createCampaign(t, h.u1.token, numbers(1));
    const unknown = await putStatus(t, h.admin, randomUUID(), 'Approved');
    expect([unknown.statusCode, messageOf(unknown)]).toEqual([404, msg.campaignNotFound]);
    for (const token of [h.u2.token, h.r2.token, h.u3.token]) {
      const res = await putStatus(t, token, id, 'Cancellation Requested');
      expect([res.statusCode, messageOf(res)]).toEqual([404, msg.campaignNotFound]);
    }
    expect((await campaignRow(t, id)).status).toBe('Submitted');
  });

  it('others than Admin may only request cancellation (403)', async () => {
    const id = await createCampaign(t, h.u1.token, numbers(1));
    for (const token of [h.u1.token, h.s1.token, h.r1.token]) {
      for (const status of ['Approved', 'Cancelled', 'Rejected']) {
        const res = await putStatus(t, token, id, status);
        expect([res.statusCode, messageOf(res)]).toEqual([403, msg.campaignCancelOnly]);
      }
    }
    expect((await campaignRow(t, id)).status).toBe('Submitted');
  });

  it('the owner requests cancellation; the Admins hear of it', async () => {
    const id = await createCampaign(t, h.u1.token, numbers(2));
    await setStatus(t, h.admin, id, 'Approved');
    const res = await putStatus(t, h.u1.token, id, 'Cancellation Requested');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<CampaignReply>()).toMatchObject({
      message: msg.campaignStatusUpdated('Cancellation Requested'),
      campaign: { status: 'Cancellation Requested' },
    });
    expect(await notificationsOf(t, adminId)).toContainEqual({
      event_type: 'campaign_status',
      message: msg.notifyCampaignCancelRequested(HELLO, h.u1.user.email),
      link: `/campaigns?open=${id}`,
    });
    // Asking again is no change; the campaign keeps its debit until the Admin decides.
    const again = await putStatus(t, h.u1.token, id, 'Cancellation Requested');
    expect(again.statusCode).toBe(409);
    expect((await campaignRow(t, id)).charged).toBe(true);
  });

  it('a manager above the owner may request cancellation too', async () => {
    for (const m of [h.s1, h.r1]) {
      const id = await createCampaign(t, h.u1.token, numbers(1));
      const res = await putStatus(t, m.token, id, 'Cancellation Requested');
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('cancellation only from Submitted, Pending Approval or Approved (409)', async () => {
    for (const status of ['Processing', 'Completed', 'Rejected', 'Cancelled'] as const) {
      const id = await createCampaign(t, h.u1.token, numbers(1));
      await setStatus(t, h.admin, id, status);
      const res = await putStatus(t, h.u1.token, id, 'Cancellation Requested');
      expect([res.statusCode, messageOf(res)]).toEqual([409, msg.campaignNotCancellable]);
      expect((await campaignRow(t, id)).status).toBe(status);
    }
  });
});

describe('PUT /api/campaigns/status/:id: credits', () => {
  it('Rejected/Cancelled refund once; leaving them debits again', async () => {
    const start = await balanceOf(t.db, h.u3.user.id, NORMAL);
    const id = await createCampaign(t, h.u3.token, numbers(3));
    expect(await balanceOf(t.db, h.u3.user.id, NORMAL)).toBe(start - 3);

    await setStatus(t, h.admin, id, 'Rejected');
    expect(await balanceOf(t.db, h.u3.user.id, NORMAL)).toBe(start);
    expect(await entriesOf(t, id, 'campaign_refund')).toEqual([
      {
        count: '3',
        reason: "Refund for campaign 'Hello'",
        type: 'Added',
        to_user_id: h.u3.user.id,
      },
    ]);
    expect(await campaignRow(t, id)).toMatchObject({ charged: false });

    // Between the two refunded statuses nothing moves.
    await setStatus(t, h.admin, id, 'Cancelled');
    expect(await balanceOf(t.db, h.u3.user.id, NORMAL)).toBe(start);
    expect(await entriesOf(t, id, 'campaign_refund')).toHaveLength(1);

    await setStatus(t, h.admin, id, 'Approved');
    expect(await balanceOf(t.db, h.u3.user.id, NORMAL)).toBe(start - 3);
    expect(await entriesOf(t, id, 'campaign_debit')).toHaveLength(2);
    expect(await campaignRow(t, id)).toMatchObject({ charged: true });

    // Moves among charged statuses do not touch the balance.
    await setStatus(t, h.admin, id, 'Completed');
    expect(await balanceOf(t.db, h.u3.user.id, NORMAL)).toBe(start - 3);

    await setStatus(t, h.admin, id, 'Cancelled');
    expect(await balanceOf(t.db, h.u3.user.id, NORMAL)).toBe(start);
    expect(await entriesOf(t, id, 'campaign_refund')).toHaveLength(2);
  });

  it('re-debit without enough credits: 409 and nothing changes', async () => {
    const id = await createCampaign(t, h.u3.token, numbers(5));
    await setStatus(t, h.admin, id, 'Rejected');
    const balance = await balanceOf(t.db, h.u3.user.id, NORMAL);
    const drain = await postCredit(
      t,
      h.admin,
      creditBody(h.u3.user.email, { type: 'Removed', count: balance - 4 }),
    );
    expect(drain.statusCode, drain.body).toBe(201);
    const notes = (await notificationsOf(t, h.u3.user.id)).length;

    const res = await putStatus(t, h.admin, id, 'Approved');
    expect([res.statusCode, messageOf(res)]).toEqual([409, msg.insufficientCredits]);
    expect(await campaignRow(t, id)).toMatchObject({ status: 'Rejected', charged: false });
    expect(await balanceOf(t.db, h.u3.user.id, NORMAL)).toBe(4);
    expect(await entriesOf(t, id, 'campaign_debit')).toHaveLength(1);
    expect(await notificationsOf(t, h.u3.user.id)).toHaveLength(notes);
    // Moving between refunded statuses still works without credits.
    await setStatus(t, h.admin, id, 'Cancelled');
    await fund(t, h.admin, h.u3.user.email, NORMAL, 100);
  });

  it('10 parallel Rejected: one refund; 10 parallel Approved: one debit', async () => {
    const start = await balanceOf(t.db, h.u1.user.id, NORMAL);
    const id = await createCampaign(t, h.u1.token, numbers(4));
    const rejects = await Promise.all(
      Array.from({ length: 10 }, () => putStatus(t, h.admin, id, 'Rejected')),
    );
    expect(rejects.map((r) => r.statusCode).sort()).toEqual([200, ...Array(9).fill(409)]);
    expect(await entriesOf(t, id, 'campaign_refund')).toHaveLength(1);
    expect(await balanceOf(t.db, h.u1.user.id, NORMAL)).toBe(start);

    const approves = await Promise.all(
      Array.from({ length: 10 }, () => putStatus(t, h.admin, id, 'Approved')),
    );
    expect(approves.map((r) => r.statusCode).sort()).toEqual([200, ...Array(9).fill(409)]);
    expect(await entriesOf(t, id, 'campaign_debit')).toHaveLength(2);
    expect(await balanceOf(t.db, h.u1.user.id, NORMAL)).toBe(start - 4);

    // Mixed and concurrent: whatever the order, the balance matches the final status.
    const mixed = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        putStatus(t, h.admin, id, ['Rejected', 'Approved', 'Cancelled'][i % 3]),
      ),
    );
    expect(mixed.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
    const row = await campaignRow(t, id);
    const refunded = row.status === 'Rejected' || row.status === 'Cancelled';
    expect(row.charged).toBe(!refunded);
    expect(await balanceOf(t.db, h.u1.user.id, NORMAL)).toBe(refunded ? start : start - 4);
    const debits = (await entriesOf(t, id, 'campaign_debit')).length;
    const refunds = (await entriesOf(t, id, 'campaign_refund')).length;
    expect(debits - refunds).toBe(refunded ? 0 : 1);
  });

  it('the ledger stays sound', async () => {
    const v = await ledgerViolations(t.db);
    for (const list of Object.values(v)) expect(list).toEqual([]);
  });
});

describe('the campaign row lock', () => {
  it('a change waiting past lock_timeout answers 409 "try again", not a server error', async () => {
    const id = await createCampaign(t, h.u1.token, numbers(1));
    const admin = { id: adminId, role: 'Admin' as const };
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.db.transaction().execute(async (tx) => {
      await lockVisibleCampaign(tx, admin, id);
      locked();
      await held;
    });
    await isLocked;
    try {
      const waiting = t.db.transaction().execute(async (tx) => {
        await sql`SET LOCAL lock_timeout = '100ms'`.execute(tx);
        await lockVisibleCampaign(tx, admin, id);
      });
      await expect(waiting).rejects.toMatchObject({ status: 409, message: msg.campaignBusy });
    } finally {
      release();
      await holder;
    }
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AWAITING_APPROVAL_LINK,
  BULK_APPROVE_MAX,
  REJECTION_REASON_MAX,
  server as msg,
  type BulkApproveReply,
  type CampaignDetail,
  type CampaignList,
  type CampaignReply,
  type Dashboard,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { balanceOf } from '../credits/credits.test-fixtures.js';
import { openTicket } from '../tickets/tickets.test-fixtures.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import {
  HELLO,
  NORMAL,
  campaignRow,
  createCampaign,
  messageOf,
  notificationsOf,
  numbers,
  setStatus,
} from './campaign-actions.test-fixtures.js';
import { file, fund, PDF, png } from './campaigns.test-fixtures.js';

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
beforeEach(async () => {
  await t.db.deleteFrom('notifications').execute();
});

const post = (token: string | undefined, url: string, payload?: object) =>
  t.request({ method: 'POST', url, token, ...(payload ? { payload } : {}) });
const approve = (token: string | undefined, id: string) =>
  post(token, `/api/campaigns/${id}/approve`);
const reject = (token: string | undefined, id: string, reason: unknown) =>
  post(token, `/api/campaigns/${id}/reject`, { reason });
const approveMany = (token: string | undefined, ids: unknown) =>
  post(token, '/api/campaigns/approve', { ids });

describe('Approve and Reject', () => {
  it('are the Admin’s: a manager or owner who sees the campaign gets 403, nobody 401', async () => {
    const id = await createCampaign(t, h.u1.token, numbers(1));
    for (const token of [h.u1.token, h.s1.token, h.r1.token]) {
      expect((await approve(token, id)).statusCode).toBe(403);
      expect((await reject(token, id, 'No')).statusCode).toBe(403);
    }
    expect((await approve(undefined, id)).statusCode).toBe(401);
    expect((await campaignRow(t, id)).status).toBe('Submitted');
  });

  it('approves a Submitted or Pending Approval campaign, once; the owner is told', async () => {
    const submitted = await createCampaign(t, h.u1.token, numbers(1));
    const res = await approve(h.admin, submitted);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<CampaignReply>()).toMatchObject({
      message: msg.campaignApproved,
      campaign: { _id: submitted, status: 'Approved', rejectionReason: null },
    });
    const again = await approve(h.admin, submitted);
    expect([again.statusCode, messageOf(again)]).toEqual([
      409,
      msg.campaignNotAwaitingApproval('Approved'),
    ]);
    expect(await notificationsOf(t, h.u1.user.id)).toContainEqual({
      event_type: 'campaign_status',
      message: msg.notifyCampaignStatus(HELLO, 'Approved'),
      link: `/campaigns?open=${submitted}`,
    });

    const pending = await createCampaign(t, h.u1.token, numbers(1));
    await setStatus(t, h.admin, pending, 'Pending Approval');
    expect((await approve(h.admin, pending)).statusCode).toBe(200);
    expect((await campaignRow(t, pending)).status).toBe('Approved');

    const unknown = await approve(h.admin, randomUUID());
    expect([unknown.statusCode, messageOf(unknown)]).toEqual([404, msg.campaignNotFound]);
  });

  it('rejects with a reason the owner reads in the bell and the details, and refunds', async () => {
    const before = await balanceOf(t.db, h.u1.user.id);
    const id = await createCampaign(t, h.u1.token, numbers(3));
    expect(await balanceOf(t.db, h.u1.user.id)).toBe(before - 3);

    for (const bad of ['', '   ', 'x'.repeat(REJECTION_REASON_MAX + 1), 42]) {
      const res = await reject(h.admin, id, bad);
      expect(res.statusCode, String(bad)).toBe(400);
    }
    expect((await reject(h.admin, id, '')).json()).toEqual({ message: msg.rejectReasonRequired });
    expect((await campaignRow(t, id)).status).toBe('Submitted');

    const reason = '  The picture shows a competitor’s logo.  ';
    const res = await reject(h.admin, id, reason);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<CampaignReply>().campaign).toMatchObject({
      status: 'Rejected',
      rejectionReason: reason.trim(),
    });
    expect(await balanceOf(t.db, h.u1.user.id)).toBe(before);
    expect(await notificationsOf(t, h.u1.user.id)).toEqual([
      {
        event_type: 'campaign_status',
        message: msg.notifyCampaignRejected(HELLO, reason.trim()),
        link: `/campaigns?open=${id}`,
      },
    ]);
    const detail = await t.request({
      method: 'GET',
      url: `/api/campaigns/${id}`,
      token: h.u1.token,
    });
    expect(detail.json<CampaignDetail>().rejectionReason).toBe(reason.trim());
    // The reason of the longest allowed length is kept whole.
    const long = await createCampaign(t, h.u1.token, numbers(1));
    const max = 'r'.repeat(REJECTION_REASON_MAX);
    expect((await reject(h.admin, long, max)).json<CampaignReply>().campaign.rejectionReason).toBe(
      max,
    );

    // A Rejected campaign is out of the queue; the Admin's Change Status moves it on and the
    // reason goes with the rejection.
    const twice = await reject(h.admin, id, 'Again');
    expect([twice.statusCode, messageOf(twice)]).toEqual([
      409,
      msg.campaignNotAwaitingApproval('Rejected'),
    ]);
    await setStatus(t, h.admin, id, 'Pending Approval');
    const back = await t.request({ method: 'GET', url: `/api/campaigns/${id}`, token: h.u1.token });
    expect(back.json<CampaignDetail>()).toMatchObject({
      status: 'Pending Approval',
      rejectionReason: null,
    });
    // Out of Rejected the debit is taken again (the second campaign stays rejected, refunded).
    expect(await balanceOf(t.db, h.u1.user.id)).toBe(before - 3);
  });
});

describe('POST /api/campaigns/approve (several at once)', () => {
  it('approves the allowed and reports each refusal, in the order asked', async () => {
    const a = await createCampaign(t, h.u1.token, numbers(1));
    const b = await createCampaign(t, h.u3.token, numbers(1));
    const done = await createCampaign(t, h.u1.token, numbers(1));
    await setStatus(t, h.admin, done, 'Cancelled');
    const missing = randomUUID();

    const res = await approveMany(h.admin, [a, done, missing, b, a]);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<BulkApproveReply>();
    expect(body).toMatchObject({
      message: msg.bulkApproveResult(2, 2),
      approvedCount: 2,
      refusedCount: 2,
    });
    expect(body.results.map((r) => [r.id, r.approved])).toEqual([
      [a, true],
      [done, false],
      [missing, false],
      [b, true],
    ]);
    expect(body.results[1]).toMatchObject({
      message: msg.campaignNotAwaitingApproval('Cancelled'),
    });
    expect(body.results[2]).toMatchObject({ message: msg.campaignNotFound });
    expect((await campaignRow(t, a)).status).toBe('Approved');
    expect((await campaignRow(t, b)).status).toBe('Approved');
    expect((await campaignRow(t, done)).status).toBe('Cancelled');
    expect(await notificationsOf(t, h.u3.user.id)).toEqual([
      {
        event_type: 'campaign_status',
        message: msg.notifyCampaignStatus(HELLO, 'Approved'),
        link: `/campaigns?open=${b}`,
      },
    ]);
  });

  it('is the Admin’s and takes 1 to 100 ids', async () => {
    const id = await createCampaign(t, h.u1.token, numbers(1));
    expect((await approveMany(h.r1.token, [id])).statusCode).toBe(403);
    expect((await approveMany(h.u1.token, [id])).statusCode).toBe(403);
    const empty = await approveMany(h.admin, []);
    expect([empty.statusCode, messageOf(empty)]).toEqual([400, msg.bulkApproveEmpty]);
    const many = Array.from({ length: BULK_APPROVE_MAX + 1 }, () => randomUUID());
    const tooMany = await approveMany(h.admin, many);
    expect([tooMany.statusCode, messageOf(tooMany)]).toEqual([400, msg.bulkApproveTooMany]);
    expect((await approveMany(h.admin, ['not-an-id'])).statusCode).toBe(400);
    expect((await campaignRow(t, id)).status).toBe('Submitted');
  });
});

describe('The Admins’ queue', () => {
  const adminNotes = async () =>
    (await notificationsOf(t, adminId)).filter((n) => n.event_type === 'campaign_approval');

  it('a new campaign, or one moved back into the queue, notifies the Admins', async () => {
    const id = await createCampaign(t, h.u1.token, numbers(1));
    expect(await adminNotes()).toEqual([
      {
        event_type: 'campaign_approval',
        message: msg.notifyCampaignAwaitingApproval(HELLO, h.u1.user.email),
        link: AWAITING_APPROVAL_LINK,
      },
    ]);
    // The Admin's own moves do not notify itself; within the queue nothing new is announced.
    await setStatus(t, h.admin, id, 'Pending Approval');
    await setStatus(t, h.admin, id, 'Approved');
    await setStatus(t, h.admin, id, 'Submitted');
    expect(await adminNotes()).toHaveLength(1);
  });

  it('the list filters to it, and the Admin’s dashboard counts it', async () => {
    await t.db.deleteFrom('campaigns').execute();
    const a = await createCampaign(t, h.u1.token, numbers(1));
    const b = await createCampaign(t, h.u3.token, numbers(1));
    const c = await createCampaign(t, h.u1.token, numbers(1));
    await setStatus(t, h.admin, b, 'Pending Approval');
    await setStatus(t, h.admin, c, 'Approved');
    const list = await t.request({
      method: 'GET',
      url: `/api/campaigns?status=${encodeURIComponent('Awaiting Approval')}`,
      token: h.admin,
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(new Set(list.json<CampaignList>().campaigns.map((x) => x._id))).toEqual(new Set([a, b]));
    // A reseller's list keeps its scope.
    const mine = await t.request({
      method: 'GET',
      url: `/api/campaigns?status=${encodeURIComponent('Awaiting Approval')}`,
      token: h.r2.token,
    });
    expect(mine.json<CampaignList>().campaigns.map((x) => x._id)).toEqual([b]);

    const dash = (token: string) =>
      t.request({ method: 'GET', url: '/api/dashboard', token }).then((r) => r.json<Dashboard>());
    expect((await dash(h.admin)).awaitingApproval).toBe(2);
    expect((await dash(h.r1.token)).awaitingApproval).toBeNull();
    expect((await dash(h.u1.token)).awaitingApproval).toBeNull();
  });

  it('a new ticket notifies the Admins, but not the Admin who opened it', async () => {
    const ticket = await openTicket(t, h.u2.token);
    expect(await notificationsOf(t, adminId)).toEqual([
      {
        event_type: 'ticket_created',
        message: msg.notifyTicketCreated(ticket.number, h.u2.user.email),
        link: `/tickets?ticket=${ticket._id}`,
      },
    ]);
    await t.db.deleteFrom('notifications').execute();
    await openTicket(t, h.admin);
    expect(await notificationsOf(t, adminId)).toEqual([]);
  });
});

describe('GET /api/campaigns/:id/files/:fileId', () => {
  it('serves a media file to whoever sees the campaign, as a download', async () => {
    const image = png(10, 10);
    const id = await createCampaign(t, h.u1.token, numbers(1), {}, [
      file('images', image, 'shop front.png'),
      file('pdf', PDF, 'price list.pdf'),
    ]);
    const detail = await t.request({ method: 'GET', url: `/api/campaigns/${id}`, token: h.admin });
    const files = detail.json<CampaignDetail>().files;
    const img = files.find((f) => f.kind === 'image');
    expect(img).toBeDefined();
    const url = `/api/campaigns/${id}/files/${img!.id}`;
    for (const token of [h.admin, h.r1.token, h.s1.token, h.u1.token]) {
      const res = await t.request({ method: 'GET', url, token });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.rawPayload.equals(image)).toBe(true);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="shop front.png"/);
    }
    // Out of scope, unknown, or a file of another campaign: 404 alike.
    expect((await t.request({ method: 'GET', url, token: h.r2.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url, token: h.u2.token })).statusCode).toBe(404);
    const other = await createCampaign(t, h.u1.token, numbers(1));
    const crossed = `/api/campaigns/${other}/files/${img!.id}`;
    expect((await t.request({ method: 'GET', url: crossed, token: h.admin })).statusCode).toBe(404);
    const unknown = `/api/campaigns/${id}/files/${randomUUID()}`;
    expect((await t.request({ method: 'GET', url: unknown, token: h.admin })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url })).statusCode).toBe(401);
  });
});

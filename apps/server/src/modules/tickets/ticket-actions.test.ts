import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { server as msg, type TicketDetail } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, formOf, multipart, type Hierarchy } from '../users/test-fixtures.js';
import { openTicket, put, ticketNotifications } from './tickets.test-fixtures.js';

let t: TestApp;
let h: Hierarchy;
let admin2: { id: string };
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  // Admins are not created through the API; a second Admin is promoted in the database.
  const other = await t.createUser(h.admin, { role: 'Reseller', name: 'A2' });
  await t.db.updateTable('users').set({ role: 'Admin' }).where('id', '=', other.user.id).execute();
  admin2 = { id: other.user.id };
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.deleteFrom('notifications').execute();
});

const adminId = async () =>
  (
    await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'admin@test.local')
      .executeTakeFirstOrThrow()
  ).id;

/** Notified user ids of one event type, sorted (duplicates kept, so "exactly once" shows). */
const notified = async (eventType: string) =>
  (await ticketNotifications(t))
    .filter((n) => n.event_type === eventType)
    .map((n) => n.user_id)
    .sort();

const url = (ticket: TicketDetail, action: string) => `/api/tickets/${ticket._id}/${action}`;

describe('PUT /api/tickets/{id}/status', () => {
  it('only Admin sets the status; others get 403', async () => {
    const ticket = await openTicket(t, h.u1.token);
    for (const token of [h.u1.token, h.s1.token, h.r1.token]) {
      const res = await put(t, token, url(ticket, 'status'), { status: 'Closed' });
      expect(res.statusCode).toBe(403);
    }
    const res = await put(t, h.admin, url(ticket, 'status'), { status: 'In Progress' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TicketDetail>().status).toBe('In Progress');
    const bad = await put(t, h.admin, url(ticket, 'status'), { status: 'Done' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'Choose a ticket status.' });
  });

  it('notifies everyone who sees the ticket but the actor, exactly once each', async () => {
    const ticket = await openTicket(t, h.u1.token);
    await put(t, h.admin, url(ticket, 'status'), { status: 'Resolved' });
    // U1 (opener), S1 and R1 (its creators) and the other Admin; not R2, U2, U3, not the actor.
    expect(await notified('ticket_status')).toEqual(
      [h.u1.user.id, h.s1.user.id, h.r1.user.id, admin2.id].sort(),
    );
    const rows = await ticketNotifications(t);
    expect(rows.find((n) => n.event_type === 'ticket_status')).toMatchObject({
      message: msg.notifyTicketStatus(ticket.number, 'Resolved'),
      link: `/tickets?ticket=${ticket._id}`,
    });
    // Setting the same status again changes nothing and tells nobody.
    await t.db.deleteFrom('notifications').execute();
    await put(t, h.admin, url(ticket, 'status'), { status: 'Resolved' });
    expect(await notified('ticket_status')).toEqual([]);
  });
});

describe('PUT /api/tickets/{id}/assign', () => {
  it('only Admin assigns, to Admin or an Active Reseller', async () => {
    const ticket = await openTicket(t, h.u3.token);
    const as = (token: string, assignee: string) =>
      put(t, token, url(ticket, 'assign'), { assignee });
    expect((await as(h.r2.token, h.r2.user.email)).statusCode).toBe(403);
    expect((await as(h.u3.token, 'Admin')).statusCode).toBe(403);
    for (const bad of [h.s1.user.email, h.u1.user.email, 'nobody@test.local']) {
      const res = await as(h.admin, bad);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: msg.ticketAssigneeInvalid });
    }
    const res = await as(h.admin, h.r1.user.email);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TicketDetail>().assignedTo).toBe(h.r1.user.email);
    // The new assignee, the opener and its chain (R2), the other Admin: once each.
    expect(await notified('ticket_assigned')).toEqual(
      [h.r1.user.id, h.u3.user.id, h.r2.user.id, admin2.id].sort(),
    );
    const back = await as(h.admin, 'Admin');
    expect(back.json<TicketDetail>().assignedTo).toBe('Admin');
  });

  it('a Reseller made a User loses the tickets assigned to it', async () => {
    const r3 = await t.createUser(h.admin, { role: 'Reseller', name: 'R3' });
    const ticket = await openTicket(t, h.u3.token);
    await put(t, h.admin, url(ticket, 'assign'), { assignee: r3.user.email });
    const get = (token: string) =>
      t.request({ method: 'GET', url: `/api/tickets/${ticket._id}`, token });
    expect((await get(r3.token)).statusCode).toBe(200);

    const demote = await t.request({
      method: 'PUT',
      url: `/api/users/update/${r3.user.id}`,
      token: h.admin,
      ...multipart({ ...formOf(r3.user), role: 'User' }),
    });
    expect(demote.statusCode, demote.body).toBe(200);
    // A fresh session as well as the old one: neither reaches the ticket any more.
    for (const token of [r3.token, await t.login(r3.user.email, r3.password)]) {
      const res = await get(token);
      expect([res.statusCode, res.json()]).toEqual([404, { message: msg.ticketNotFound }]);
      const reply = await put(t, token, url(ticket, 'reply'), { message: 'still here' });
      expect(reply.statusCode).toBe(404);
    }
    // It is back with the Admins.
    expect((await get(h.admin)).json<TicketDetail>().assignedTo).toBe('Admin');
  });
});

describe('PUT /api/tickets/{id}/escalate', () => {
  it('only the assigned Reseller escalates: Escalated, and back to Admin', async () => {
    const ticket = await openTicket(t, h.u1.token);
    // Not assigned yet: R1 sees it (its subtree) but may not escalate.
    const early = await put(t, h.r1.token, url(ticket, 'escalate'));
    expect(early.statusCode).toBe(403);
    expect(early.json()).toEqual({ message: msg.ticketEscalateNotAssigned });
    await put(t, h.admin, url(ticket, 'assign'), { assignee: h.r1.user.email });
    // Other roles: the route is the Reseller's.
    for (const token of [h.u1.token, h.s1.token, h.admin]) {
      expect((await put(t, token, url(ticket, 'escalate'))).statusCode).toBe(403);
    }
    // Another Reseller does not see the ticket at all.
    expect((await put(t, h.r2.token, url(ticket, 'escalate'))).statusCode).toBe(404);
    await t.db.deleteFrom('notifications').execute();
    const res = await put(t, h.r1.token, url(ticket, 'escalate'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TicketDetail>()).toMatchObject({ status: 'Escalated', assignedTo: 'Admin' });
    expect(await notified('ticket_escalated')).toEqual(
      [await adminId(), admin2.id, h.u1.user.id, h.s1.user.id].sort(),
    );
    // Back with the Admins, R1 is no longer the assignee: a second escalation is refused.
    expect((await put(t, h.r1.token, url(ticket, 'escalate'))).statusCode).toBe(403);
  });

  it('a reseller assigned a ticket outside its subtree loses it on escalation', async () => {
    const ticket = await openTicket(t, h.u3.token);
    await put(t, h.admin, url(ticket, 'assign'), { assignee: h.r1.user.email });
    expect((await put(t, h.r1.token, url(ticket, 'escalate'))).statusCode).toBe(200);
    const after = await t.request({
      method: 'GET',
      url: `/api/tickets/${ticket._id}`,
      token: h.r1.token,
    });
    expect(after.statusCode).toBe(404);
  });
});

describe('PUT /api/tickets/{id}/reply', () => {
  it('adds to the conversation of anyone who sees the ticket; blank is refused', async () => {
    const ticket = await openTicket(t, h.u1.token);
    const blank = await put(t, h.u1.token, url(ticket, 'reply'), { message: '  \n ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({ message: msg.ticketReplyRequired });
    const res = await put(t, h.s1.token, url(ticket, 'reply'), { message: '<b>on it</b>' });
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json<TicketDetail>();
    expect(detail.replies).toEqual([
      expect.objectContaining({ author: h.s1.user.email, support: false, message: '<b>on it</b>' }),
    ]);
    expect(Date.parse(detail.updatedAt)).toBeGreaterThan(Date.parse(ticket.updatedAt));
    expect(await notified('ticket_reply')).toEqual(
      [await adminId(), admin2.id, h.u1.user.id, h.r1.user.id].sort(),
    );
    const reply2 = await put(t, h.u1.token, url(ticket, 'reply'), { message: 'thanks' });
    expect(reply2.json<TicketDetail>().replies.map((r) => r.message)).toEqual([
      '<b>on it</b>',
      'thanks',
    ]);
  });

  it('a rolled-back change writes no notification', async () => {
    const ticket = await openTicket(t, h.u1.token);
    // Opening it told the Admins; only what follows counts here.
    await t.db.deleteFrom('notifications').execute();
    const res = await put(t, h.admin, url(ticket, 'assign'), { assignee: 'x@test.local' });
    expect(res.statusCode).toBe(400);
    expect(await ticketNotifications(t)).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  server as msg,
  type Dashboard,
  type TicketDetail,
  type TicketList,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { openTicket, postTicket, put } from './tickets.test-fixtures.js';

let t: TestApp;
let h: Hierarchy;
/** One ticket opened by each user: Admin; R1 → S1 → U1; R1 → U2; R2 → U3. */
const byOpener: Record<string, TicketDetail> = {};
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  const openers = { admin: h.admin, r1: h.r1.token, s1: h.s1.token, u1: h.u1.token };
  const more = { u2: h.u2.token, r2: h.r2.token, u3: h.u3.token };
  for (const [name, token] of Object.entries({ ...openers, ...more })) {
    byOpener[name] = await openTicket(t, token, { subject: `from ${name}` });
  }
});
afterAll(() => t.close());

const list = (token: string | undefined, query = '') =>
  t.request({ method: 'GET', url: `/api/tickets${query}`, token });
const subjects = async (token: string) => {
  const res = await list(token);
  expect(res.statusCode, res.body).toBe(200);
  return res
    .json<TicketList>()
    .tickets.map((x) => x.subject)
    .sort();
};

describe('POST /api/tickets', () => {
  it('opens a ticket assigned to Admin, status Open, issue type Other by default', async () => {
    const ticket = byOpener.u1 as TicketDetail;
    expect(ticket).toMatchObject({
      subject: 'from u1',
      description: 'Something broke',
      status: 'Open',
      issueType: 'Other',
      userEmail: h.u1.user.email,
      assignedTo: 'Admin',
      relatedCampaign: null,
      attachments: [],
      replies: [],
    });
    expect(ticket.number).toBeGreaterThan(0);
  });

  it('requires subject and description, with the messages', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ subject: '  ' }, msg.ticketSubjectRequired],
      [{ description: '' }, msg.ticketDescriptionRequired],
      [{ issueType: 'Billing' }, 'Choose an issue type.'],
    ];
    for (const [fields, message] of cases) {
      const res = await postTicket(t, h.u1.token, fields);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ message });
    }
    expect((await postTicket(t, undefined)).statusCode).toBe(401);
  });

  it("takes each of the contract's issue types", async () => {
    for (const issueType of ['Campaign', 'User', 'Credits/Debits', 'Other']) {
      const ticket = await openTicket(t, h.u2.token, { issueType, subject: 'types' });
      expect(ticket.issueType).toBe(issueType);
    }
  });

  it('accepts a related user, campaign or transaction only from the opener’s scope', async () => {
    const mine = await openTicket(t, h.r1.token, { relatedUser: h.u1.user.id, subject: 'rel' });
    expect(mine.relatedUser).toBe(h.u1.user.id);
    const other = await postTicket(t, h.r1.token, { relatedUser: h.u3.user.id });
    expect(other.statusCode).toBe(404);
    const campaign = await postTicket(t, h.u1.token, { relatedCampaign: randomUUID() });
    expect(campaign.statusCode).toBe(404);
    const txn = await postTicket(t, h.u1.token, { relatedTransaction: '99999' });
    expect(txn.statusCode).toBe(404);
    expect(txn.json()).toEqual({ message: msg.ticketRelatedNotFound('transaction') });
  });
});

describe('POST /api/tickets rate limit', () => {
  it('answers 429 with Retry-After past 20 tickets in 10 minutes per user', async () => {
    const member = await t.createUser(h.admin, { role: 'User' });
    for (let i = 0; i < 20; i++) {
      expect((await postTicket(t, member.token, { subject: `burst ${i}` })).statusCode).toBe(201);
    }
    const res = await postTicket(t, member.token);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ message: msg.tooManyRequests });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // Another user is not affected.
    expect((await postTicket(t, h.u3.token, { subject: 'other' })).statusCode).toBe(201);
    await t.db
      .deleteFrom('tickets')
      .where((eb) => eb.or([eb('subject', 'like', 'burst %'), eb('subject', '=', 'other')]))
      .execute();
  });
});

describe('GET /api/tickets scope', () => {
  it("shows each role its own, its subtree's and those assigned to it; Admin all", async () => {
    expect(await subjects(h.u1.token)).toEqual(['from u1']);
    expect(await subjects(h.s1.token)).toEqual(['from s1', 'from u1']);
    expect((await subjects(h.r1.token)).filter((s) => s.startsWith('from'))).toEqual([
      'from r1',
      'from s1',
      'from u1',
      'from u2',
    ]);
    expect(await subjects(h.r2.token)).toEqual(['from r2', 'from u3']);
    const all = (await subjects(h.admin)).filter((s) => s.startsWith('from'));
    expect(all).toEqual([
      'from admin',
      'from r1',
      'from r2',
      'from s1',
      'from u1',
      'from u2',
      'from u3',
    ]);
  });

  it('adds the tickets assigned to a reseller outside its subtree', async () => {
    const ticket = await openTicket(t, h.u1.token, { subject: 'for r2' });
    expect(await subjects(h.r2.token)).not.toContain('for r2');
    const res = await put(t, h.admin, `/api/tickets/${ticket._id}/assign`, {
      assignee: h.r2.user.email,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await subjects(h.r2.token)).toContain('for r2');
    const detail = await t.request({
      method: 'GET',
      url: `/api/tickets/${ticket._id}`,
      token: h.r2.token,
    });
    expect(detail.statusCode).toBe(200);
  });

  it('answers 404 for a ticket out of scope, for every read and change', async () => {
    const theirs = byOpener.u3 as TicketDetail;
    for (const token of [h.u1.token, h.s1.token, h.r1.token, h.u2.token]) {
      const get = await t.request({ method: 'GET', url: `/api/tickets/${theirs._id}`, token });
      expect(get.statusCode).toBe(404);
      expect(get.json()).toEqual({ message: msg.ticketNotFound });
      const reply = await put(t, token, `/api/tickets/${theirs._id}/reply`, { message: 'hi' });
      expect(reply.statusCode).toBe(404);
    }
    // A Reseller that does not see it: 404 before any other check.
    const esc = await put(t, h.r1.token, `/api/tickets/${theirs._id}/escalate`);
    expect(esc.statusCode).toBe(404);
    const unknown = await t.request({
      method: 'GET',
      url: `/api/tickets/${randomUUID()}`,
      token: h.admin,
    });
    expect(unknown.statusCode).toBe(404);
    expect((await list(undefined)).statusCode).toBe(401);
  });

  it('pages newest first by number with a keyset cursor', async () => {
    const first = await list(h.admin, '?limit=3');
    const page1 = first.json<TicketList>();
    expect(page1.tickets).toHaveLength(3);
    expect(page1.nextCursor).not.toBeNull();
    const second = await list(h.admin, `?limit=3&cursor=${page1.nextCursor}`);
    const page2 = second.json<TicketList>();
    const numbers = [...page1.tickets, ...page2.tickets].map((x) => x.number);
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    expect(new Set(numbers).size).toBe(6);
    expect((await list(h.admin, '?cursor=abc')).statusCode).toBe(400);
    const all = (await list(h.admin, '?limit=500')).json<TicketList>();
    expect(all.nextCursor).toBeNull();
  });
});

describe('dashboards', () => {
  it("count the open tickets the caller sees: Admin all, others their scope's", async () => {
    const open = async (token: string) =>
      (await t.request({ method: 'GET', url: '/api/dashboard', token })).json<Dashboard>()
        .openTickets;
    const before = { admin: await open(h.admin), u3: await open(h.u3.token) };
    expect(before.u3).toBe(1);
    const res = await put(t, h.admin, `/api/tickets/${byOpener.u3?._id}/status`, {
      status: 'Resolved',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await open(h.u3.token)).toBe(0);
    expect(await open(h.admin)).toBe((before.admin ?? 0) - 1);
    const visible = (await list(h.r2.token)).json<TicketList>().tickets;
    const openOnes = visible.filter((x) => ['Open', 'In Progress', 'Escalated'].includes(x.status));
    expect(await open(h.r2.token)).toBe(openOnes.length);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_COMPANY_NAME, supportAuthor, type TicketDetail } from '@herald/contract';
import { ADMIN_EMAIL, createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, multipart, type Hierarchy } from '../users/test-fixtures.js';
import { openTicket, put, ticketNotifications } from './tickets.test-fixtures.js';

/**
 * A reply of the platform's Admin reads as the support of the brand that serves the viewer
 * (docs/product.md, Tickets); the Admin still sees who replied.
 */
let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  const res = await t.request({
    method: 'POST',
    url: '/api/whitelabel/settings',
    token: h.r1.token,
    ...multipart({ companyName: 'Acme Messaging' }),
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(() => t.close());

async function detail(token: string, id: string) {
  const res = await t.request({ method: 'GET', url: `/api/tickets/${id}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TicketDetail>();
}

const authors = (d: TicketDetail) => d.replies.map((r) => [r.author, r.support]);

describe("the Admin's ticket replies", () => {
  it('show as the brand support to users under a branded Reseller, as they are to the Admin', async () => {
    const ticket = await openTicket(t, h.u1.token);
    const res = await put(t, h.admin, `/api/tickets/${ticket._id}/reply`, { message: 'Fixed.' });
    expect(res.statusCode, res.body).toBe(200);
    // The Admin's own answer shows the Admin.
    expect(authors(res.json<TicketDetail>())).toEqual([[ADMIN_EMAIL, false]]);
    await put(t, h.u1.token, `/api/tickets/${ticket._id}/reply`, { message: 'Thanks!' });

    const support = supportAuthor('Acme Messaging');
    expect(authors(await detail(h.u1.token, ticket._id))).toEqual([
      [support, true],
      [h.u1.user.email, false],
    ]);
    expect(authors(await detail(h.s1.token, ticket._id))[0]).toEqual([support, true]);
    expect(authors(await detail(h.admin, ticket._id))).toEqual([
      [ADMIN_EMAIL, false],
      [h.u1.user.email, false],
    ]);
    const body = (
      await t.request({
        method: 'GET',
        url: `/api/tickets/${ticket._id}`,
        token: h.u1.token,
      })
    ).body;
    expect(body).not.toContain(ADMIN_EMAIL);
  });

  it("the branded Reseller itself is served under the brand above it, the house's", async () => {
    const ticket = await openTicket(t, h.r1.token);
    await put(t, h.admin, `/api/tickets/${ticket._id}/reply`, { message: 'Hello' });
    expect(authors(await detail(h.r1.token, ticket._id))).toEqual([
      [supportAuthor(DEFAULT_COMPANY_NAME), true],
    ]);
  });

  it('the reply notification reads the same way for each reader', async () => {
    const ticket = await openTicket(t, h.u1.token);
    await put(t, h.admin, `/api/tickets/${ticket._id}/reply`, { message: 'Looking' });
    const rows = (await ticketNotifications(t)).filter(
      (r) => r.event_type === 'ticket_reply' && !!r.link?.includes(ticket._id),
    );
    const byUser = new Map(rows.map((r) => [r.user_id, r.message]));
    expect(byUser.get(h.u1.user.id)).toContain(supportAuthor('Acme Messaging'));
    expect(byUser.get(h.s1.user.id)).toContain(supportAuthor('Acme Messaging'));
    expect(byUser.get(h.r1.user.id)).toContain(supportAuthor(DEFAULT_COMPANY_NAME));
    for (const message of byUser.values()) expect(message).not.toContain(ADMIN_EMAIL);
  });

  it("a reseller's reply shows its own address to everyone", async () => {
    const ticket = await openTicket(t, h.u1.token);
    await put(t, h.r1.token, `/api/tickets/${ticket._id}/reply`, { message: 'On it' });
    expect(authors(await detail(h.u1.token, ticket._id))).toEqual([[h.r1.user.email, false]]);
  });
});

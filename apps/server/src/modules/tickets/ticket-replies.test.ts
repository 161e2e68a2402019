import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_COMPANY_NAME,
  server as msg,
  supportAuthor,
  TICKET_REPLIES_PAGE,
  type TicketDetail,
  type TicketRepliesPage,
  type TicketReply,
} from '@herald/contract';
import { ADMIN_EMAIL, createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { openTicket, put } from './tickets.test-fixtures.js';

/**
 * The ticket detail carries the newest TICKET_REPLIES_PAGE replies and a cursor; GET
 * /api/tickets/{id}/replies answers the earlier pages by it, to whoever sees the ticket
 * (docs/product.md, Tickets).
 */
let t: TestApp;
let h: Hierarchy;
let ticketId: string;
/** Every reply of the ticket, in the conversation's order (created_at, then id). */
let expected: string[];
const TOTAL = 2 * TICKET_REPLIES_PAGE + 20;

beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  ticketId = (await openTicket(t, h.u1.token))._id;
  const [user, admin] = await Promise.all(
    [h.u1.user.email, ADMIN_EMAIL].map((email) =>
      t.db
        .selectFrom('users')
        .select(['id', 'email', 'name'])
        .where('email', '=', email)
        .executeTakeFirstOrThrow(),
    ),
  );
  // Three replies share each second, so ties fall on the pages' edges and the id decides;
  // 'reply 0' (in the first second) is the Admin's.
  const base = Date.UTC(2026, 0, 1);
  await t.db
    .insertInto('ticket_replies')
    .values(
      Array.from({ length: TOTAL }, (_, i) => {
        const author = i === 0 ? admin! : user!;
        return {
          ticket_id: ticketId,
          user_id: author.id,
          user_email: author.email,
          user_name: author.name,
          message: `reply ${i}`,
          created_at: new Date(base + Math.floor(i / 3) * 1000),
        };
      }),
    )
    .execute();
  expected = (
    await t.db
      .selectFrom('ticket_replies')
      .select('id')
      .where('ticket_id', '=', ticketId)
      .orderBy('created_at')
      .orderBy('id')
      .execute()
  ).map((r) => r.id);
});
afterAll(() => t.close());

const detail = (token: string) =>
  t.request({ method: 'GET', url: `/api/tickets/${ticketId}`, token });
const earlier = (token: string, before: string, id = ticketId) =>
  t.request({
    method: 'GET',
    url: `/api/tickets/${id}/replies?before=${encodeURIComponent(before)}`,
    token,
  });
const ids = (replies: readonly TicketReply[]) => replies.map((r) => r._id);

/** Walks the pages from the detail back to the first reply, as the conversation does. */
async function everyPage(token: string): Promise<TicketRepliesPage[]> {
  const res = await detail(token);
  expect(res.statusCode, res.body).toBe(200);
  const pages: TicketRepliesPage[] = [res.json<TicketDetail>()];
  for (let cursor = pages[0]!.earlierRepliesCursor; cursor;) {
    const page = await earlier(token, cursor);
    expect(page.statusCode, page.body).toBe(200);
    pages.unshift(page.json<TicketRepliesPage>());
    cursor = pages[0]!.earlierRepliesCursor;
  }
  return pages;
}

describe('ticket replies in pages', () => {
  it('the detail holds the newest page, oldest first; the cursor walks back to the first reply', async () => {
    const pages = await everyPage(h.u1.token);
    expect(pages.map((p) => p.replies.length)).toEqual([
      TOTAL - 2 * TICKET_REPLIES_PAGE,
      TICKET_REPLIES_PAGE,
      TICKET_REPLIES_PAGE,
    ]);
    expect(ids(pages.flatMap((p) => p.replies))).toEqual(expected);
    expect(pages[0]!.earlierRepliesCursor).toBeNull();
  });

  it('an Admin reply on an earlier page reads as the support to the user, as itself to the Admin', async () => {
    // 'reply 0' shares its second with two others: the id decides where it stands on the page.
    const adminReply = (page: TicketRepliesPage | undefined) =>
      page?.replies.find((r) => r.message === 'reply 0');
    const [first] = await everyPage(h.u1.token);
    expect(adminReply(first)).toMatchObject({
      author: supportAuthor(DEFAULT_COMPANY_NAME),
      support: true,
    });
    const [adminFirst] = await everyPage(h.admin);
    expect(adminReply(adminFirst)).toMatchObject({ author: ADMIN_EMAIL, support: false });
  });

  it('a ticket with few replies has no earlier page', async () => {
    const other = await openTicket(t, h.u2.token);
    await put(t, h.u2.token, `/api/tickets/${other._id}/reply`, { message: 'only one' });
    const res = await t.request({ url: `/api/tickets/${other._id}`, token: h.u2.token });
    expect(res.json<TicketDetail>()).toMatchObject({
      replies: [{ message: 'only one' }],
      earlierRepliesCursor: null,
    });
  });

  it('a new reply moves the newest page on; the earlier pages still reach every reply once', async () => {
    const res = await put(t, h.s1.token, `/api/tickets/${ticketId}/reply`, { message: 'newest' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<TicketDetail>();
    expect(body.replies).toHaveLength(TICKET_REPLIES_PAGE);
    expect(body.replies.at(-1)?.message).toBe('newest');
    const pages = await everyPage(h.s1.token);
    const all = ids(pages.flatMap((p) => p.replies));
    expect(all.slice(0, -1)).toEqual(expected);
    expect(new Set(all).size).toBe(TOTAL + 1);
    expected = all;
  });

  it('answers earlier pages only to those who see the ticket (404 otherwise)', async () => {
    const { earlierRepliesCursor } = (await detail(h.u1.token)).json<TicketDetail>();
    const cursor = earlierRepliesCursor!;
    // The opener's chain and the Admin see it; a user beside it and another chain do not.
    for (const token of [h.s1.token, h.r1.token, h.admin]) {
      expect((await earlier(token, cursor)).statusCode).toBe(200);
    }
    for (const token of [h.u2.token, h.r2.token, h.u3.token]) {
      const res = await earlier(token, cursor);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: msg.ticketNotFound });
    }
    const unknown = await earlier(h.admin, cursor, '0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a');
    expect(unknown.statusCode).toBe(404);
    expect(
      (await t.request({ url: `/api/tickets/${ticketId}/replies?before=${cursor}` })).statusCode,
    ).toBe(401);
  });

  it('answers another ticket only its own replies for a cursor taken elsewhere', async () => {
    const { earlierRepliesCursor } = (await detail(h.u1.token)).json<TicketDetail>();
    const other = await openTicket(t, h.u1.token);
    const res = await earlier(h.u1.token, earlierRepliesCursor!, other._id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ replies: [], earlierRepliesCursor: null });
  });

  it.each([
    ['nope'],
    [''],
    ['12345'],
    ['1_not-a-uuid'],
    [`12345678901234567_${'0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a'}`],
    ['1_0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a_x'],
    ['1\u0000_0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a'],
  ])('refuses the cursor %j with 400', async (before) => {
    const res = await earlier(h.u1.token, before);
    expect(res.statusCode).toBe(400);
    expect([msg.invalidCursor, msg.textHasNul]).toContain(res.json<{ message: string }>().message);
  });

  it('refuses a missing cursor with 400', async () => {
    const res = await t.request({ url: `/api/tickets/${ticketId}/replies`, token: h.u1.token });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: msg.invalidCursor });
  });
});

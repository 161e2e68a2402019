import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RATE_LIMITS,
  server as msg,
  TICKET_REPLIES_MAX,
  TICKET_REPLIES_PAGE,
  type TicketDetail,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { openTicket, put } from './tickets.test-fixtures.js';

/**
 * A reply notifies every Admin and the ticket's chain: a user's replies are rate limited, and a
 * ticket holds at most TICKET_REPLIES_MAX of them
 * (docs/product.md, Tickets).
 */
let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

const replies = async (ticketId: string) =>
  Number(
    (
      await t.db
        .selectFrom('ticket_replies')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('ticket_id', '=', ticketId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('PUT /api/tickets/{id}/reply limits', () => {
  it("refuses a user's replies past the rate limit with 429, adding nothing", async () => {
    const ticket = await openTicket(t, h.u2.token);
    const url = `/api/tickets/${ticket._id}/reply`;
    const { max } = RATE_LIMITS.ticketReplyPerUser;
    for (let i = 0; i < max; i++) {
      const res = await put(t, h.u2.token, url, { message: `reply ${i}` });
      expect(res.statusCode, res.body).toBe(200);
    }
    const over = await put(t, h.u2.token, url, { message: 'one too many' });
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(await replies(ticket._id)).toBe(max);
    // Another user on the same ticket is not held back by it.
    expect((await put(t, h.admin, url, { message: 'Admin here' })).statusCode).toBe(200);
  });

  it(`a ticket takes ${TICKET_REPLIES_MAX} replies, then answers 409 with its message`, async () => {
    const ticket = await openTicket(t, h.u1.token);
    const url = `/api/tickets/${ticket._id}/reply`;
    const user = await t.db
      .selectFrom('users')
      .select(['id', 'email', 'name'])
      .where('id', '=', h.u1.user.id)
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('ticket_replies')
      .values(
        Array.from({ length: TICKET_REPLIES_MAX - 1 }, (_, i) => ({
          ticket_id: ticket._id,
          user_id: user.id,
          user_email: user.email,
          user_name: user.name,
          message: `earlier ${i}`,
        })),
      )
      .execute();
    const last = await put(t, h.admin, url, { message: 'the last one' });
    expect(last.statusCode, last.body).toBe(200);
    // The detail carries the newest page; the count is the database's.
    expect(last.json<TicketDetail>().replies).toHaveLength(TICKET_REPLIES_PAGE);
    expect(last.json<TicketDetail>().earlierRepliesCursor).not.toBeNull();
    expect(await replies(ticket._id)).toBe(TICKET_REPLIES_MAX);
    const full = await put(t, h.admin, url, { message: 'no room' });
    expect(full.statusCode).toBe(409);
    expect(full.json()).toEqual({ message: msg.ticketRepliesFull(TICKET_REPLIES_MAX) });
    expect(await replies(ticket._id)).toBe(TICKET_REPLIES_MAX);
  });
});

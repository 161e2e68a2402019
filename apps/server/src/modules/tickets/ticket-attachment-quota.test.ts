import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as msg, TICKET_ATTACHMENT_BYTES_PER_DAY } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, TINY_PNG, type Hierarchy } from '../users/test-fixtures.js';
import { storedNames } from '../../../test/storage-fixtures.js';
import { TICKETS_FOLDER } from './ticket-files.js';
import { attachment, openTicket, postTicket } from './tickets.test-fixtures.js';

/**
 * One user adds at most TICKET_ATTACHMENT_BYTES_PER_DAY of attachments in 24 hours; past it a
 * new ticket with attachments answers 413 and leaves nothing in the store (docs/product.md, Tickets).
 * The bytes already used are set on an earlier ticket's attachment row, not uploaded.
 */
let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

const onDisk = async () => (await storedNames(t.app.ctx.files, TICKETS_FOLDER)).length;

describe('ticket attachment bytes per user per day', () => {
  it('refuses attachments past the daily bytes; a ticket without any, or a day later, is fine', async () => {
    const earlier = await openTicket(t, h.u1.token, {}, [attachment(TINY_PNG, 'a.png')]);
    await sql`UPDATE ticket_attachments SET size = ${TICKET_ATTACHMENT_BYTES_PER_DAY - 10}
      WHERE ticket_id = ${earlier._id}`.execute(t.db);
    const files = await onDisk();

    const over = await postTicket(t, h.u1.token, {}, [attachment(TINY_PNG, 'b.png')]);
    expect(over.statusCode, over.body).toBe(413);
    expect(over.json()).toEqual({ message: msg.ticketAttachmentQuota(100) });
    expect(await onDisk()).toBe(files);

    // Without attachments the ticket goes through; another user has its own bytes.
    expect((await postTicket(t, h.u1.token, {}, [])).statusCode).toBe(201);
    expect((await postTicket(t, h.u2.token, {}, [attachment(TINY_PNG, 'c.png')])).statusCode).toBe(
      201,
    );

    // A day later the earlier bytes no longer count.
    await sql`UPDATE tickets SET created_at = now() - interval '25 hours'
      WHERE id = ${earlier._id}`.execute(t.db);
    expect((await postTicket(t, h.u1.token, {}, [attachment(TINY_PNG, 'd.png')])).statusCode).toBe(
      201,
    );
  });
});

import fs from 'node:fs/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as msg, TICKET_ATTACHMENT_BYTES_PER_DAY } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, TINY_PNG, type Hierarchy } from '../users/test-fixtures.js';
import { STORAGE_DRIVERS, storedNames } from '../../../test/storage-fixtures.js';
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

/**
 * Parallel uploads whose sum passes the daily bytes: the check and the insert run under the
 * user's lock, so the stored total stays within it; each refused one answers 413 and leaves no
 * file stored or staged. On both drivers: the refused files were already in the store.
 */
describe.each(STORAGE_DRIVERS)('parallel attachments on the %s driver', (_driver, env) => {
  let app: TestApp;
  let users: Hierarchy;
  beforeAll(async () => {
    app = await createTestApp(env());
    users = await buildHierarchy(app);
  });
  afterAll(() => app.close());

  const usedBytes = async (userId: string) =>
    Number(
      (
        await app.db
          .selectFrom('ticket_attachments as a')
          .innerJoin('tickets as tk', 'tk.id', 'a.ticket_id')
          .select((eb) => eb.fn.sum<string>('a.size').as('bytes'))
          .where('tk.user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).bytes,
    );

  it('lets through only the uploads that fit; the others answer 413 and store nothing', async () => {
    const size = TINY_PNG.length;
    const earlier = await openTicket(app, users.u3.token, {}, [attachment(TINY_PNG, 'a.png')]);
    // Room for two more files and a half.
    await sql`UPDATE ticket_attachments SET size = ${TICKET_ATTACHMENT_BYTES_PER_DAY - 2 * size - Math.floor(size / 2)}
      WHERE ticket_id = ${earlier._id}`.execute(app.db);
    const stored = await storedNames(app.app.ctx.files, TICKETS_FOLDER);
    const staged = await fs.readdir(app.app.ctx.stagingDir);

    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        postTicket(app, users.u3.token, {}, [attachment(TINY_PNG, `p${i}.png`)]),
      ),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 201, 413, 413, 413, 413]);
    for (const r of results.filter((x) => x.statusCode === 413)) {
      expect(r.json()).toEqual({ message: msg.ticketAttachmentQuota(100) });
    }
    expect(await usedBytes(users.u3.user.id)).toBeLessThanOrEqual(TICKET_ATTACHMENT_BYTES_PER_DAY);
    const after = await storedNames(app.app.ctx.files, TICKETS_FOLDER);
    expect(after.length).toBe(stored.length + 2);
    const names = await app.db.selectFrom('ticket_attachments').select('stored_name').execute();
    expect(new Set(names.map((n) => n.stored_name))).toEqual(new Set(after));
    expect(await fs.readdir(app.app.ctx.stagingDir)).toEqual(staged);
  });
});

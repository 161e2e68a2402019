import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { server as msg } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { STORAGE_DRIVERS, storedBytes, storedNames } from '../../../test/storage-fixtures.js';
import { storageKey } from '../../lib/storage/file-store.js';
import { PDF } from '../campaigns/campaigns.test-fixtures.js';
import { buildHierarchy, TINY_PNG, type Hierarchy } from '../users/test-fixtures.js';
import { TICKETS_FOLDER, removeTicketFiles } from './ticket-files.js';
import { sweepTicketUploads } from './ticket-orphans.js';
import { attachment, openTicket, postTicket } from './tickets.test-fixtures.js';

/** Ticket attachments in the FileStore, on both drivers (docs/operations.md, File storage). */
describe.each(STORAGE_DRIVERS)('ticket attachments on the %s driver', (_driver, env) => {
  let t: TestApp;
  let h: Hierarchy;
  beforeAll(async () => {
    t = await createTestApp(env());
    h = await buildHierarchy(t);
  });
  afterAll(() => t.close());

  const storedNameOf = async (attachmentId: string) =>
    (
      await t.db
        .selectFrom('ticket_attachments')
        .select('stored_name')
        .where('id', '=', attachmentId)
        .executeTakeFirstOrThrow()
    ).stored_name;
  const downloadUrl = (ticketId: string, attachmentId: string) =>
    `/api/tickets/${ticketId}/attachments/${attachmentId}`;

  it('serves an attachment stored through one instance from another, same bytes', async () => {
    const ticket = await openTicket(t, h.u1.token, {}, [attachment(PDF, 'invoice.pdf')]);
    const [file] = ticket.attachments;
    const name = await storedNameOf(file!.id);
    expect(await storedBytes(t.app.ctx.files, storageKey(TICKETS_FOLDER, name))).toEqual(PDF);
    const other = await t.otherInstance();
    const res = await other.inject({
      method: 'GET',
      url: downloadUrl(ticket._id, file!.id),
      headers: { authorization: `Bearer ${h.u1.token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.equals(PDF)).toBe(true);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-length']).toBe(String(PDF.length));
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="invoice.pdf"/);
  });

  it('answers 410 with its message when the store lost the attachment', async () => {
    const ticket = await openTicket(t, h.u1.token, {}, [attachment(TINY_PNG, 'lost.png')]);
    const [file] = ticket.attachments;
    const name = await storedNameOf(file!.id);
    await t.app.ctx.files.delete(storageKey(TICKETS_FOLDER, name));
    const res = await t.request({ url: downloadUrl(ticket._id, file!.id), token: h.u1.token });
    expect(res.statusCode).toBe(410);
    expect(res.json()).toEqual({ message: msg.fileGone });
  });

  it('leaves nothing stored or staged when the ticket is refused after the upload', async () => {
    const before = await storedNames(t.app.ctx.files, TICKETS_FOLDER);
    // A related record out of scope: refused once the files were read.
    const res = await postTicket(t, h.u1.token, { relatedUser: h.u3.user.id }, [
      attachment(TINY_PNG, 'a.png'),
      attachment(PDF, 'b.pdf'),
    ]);
    expect(res.statusCode).toBe(404);
    expect(await storedNames(t.app.ctx.files, TICKETS_FOLDER)).toEqual(before);
  });

  it('removes what it stored when a later file cannot be stored', async () => {
    const store = t.app.ctx.files;
    const before = await storedNames(store, TICKETS_FOLDER);
    const staged = await fs.readdir(t.app.ctx.stagingDir);
    const realPut = store.putFile.bind(store);
    let calls = 0;
    const put = vi.spyOn(store, 'putFile').mockImplementation(async (key, filePath) => {
      if (++calls === 2) throw new Error('the store went away');
      return realPut(key, filePath);
    });
    try {
      const res = await postTicket(t, h.u1.token, {}, [
        attachment(TINY_PNG, 'a.png'),
        attachment(PDF, 'b.pdf'),
      ]);
      expect(res.statusCode).toBe(500);
      expect(calls).toBe(2);
    } finally {
      put.mockRestore();
    }
    expect(await storedNames(store, TICKETS_FOLDER)).toEqual(before);
    expect(await fs.readdir(t.app.ctx.stagingDir)).toEqual(staged);
  });

  it('removeTicketFiles deletes the named attachments and skips names that are not ours', async () => {
    const ticket = await openTicket(t, h.u2.token, {}, [attachment(TINY_PNG, 'gone.png')]);
    const name = await storedNameOf(ticket.attachments[0]!.id);
    await removeTicketFiles(t.app.ctx.files, [name, '../../backups/x.zip', '.hidden', 'a/b']);
    expect(await storedNames(t.app.ctx.files, TICKETS_FOLDER)).not.toContain(name);
  });

  it('sweeps attachments no row names and keeps the named ones', async () => {
    const ticket = await openTicket(t, h.u1.token, {}, [attachment(TINY_PNG, 'kept.png')]);
    const kept = await storedNameOf(ticket.attachments[0]!.id);
    const orphan = '0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a.png';
    await t.app.ctx.files.put(storageKey(TICKETS_FOLDER, orphan), Buffer.from('x'));
    // An object's time cannot be set on S3: a negative grace takes every file as old.
    expect(await sweepTicketUploads(t.db, t.app.ctx.files, -1)).toBe(1);
    const left = await storedNames(t.app.ctx.files, TICKETS_FOLDER);
    expect(left).toContain(kept);
    expect(left).not.toContain(orphan);
  });
});

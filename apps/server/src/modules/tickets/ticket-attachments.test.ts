import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as msg, type TicketDetail } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, TINY_PNG, type Hierarchy } from '../users/test-fixtures.js';
import { PDF } from '../campaigns/campaigns.test-fixtures.js';
import { storedNames } from '../../../test/storage-fixtures.js';
import { storageKey } from '../../lib/storage/file-store.js';
import { TICKETS_FOLDER } from './ticket-files.js';
import { attachment, openTicket, postTicket, XLSX } from './tickets.test-fixtures.js';

let t: TestApp;
let h: Hierarchy;
let ticket: TicketDetail;
const CSV = Buffer.from('number,status\n9876543210,ok\n');
const TXT = Buffer.from('Grüße — the log says:\r\n\tline two\n');
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  ticket = await openTicket(t, h.u1.token, {}, [
    attachment(TINY_PNG, 'screen.png'),
    attachment(PDF, 'invoice.pdf'),
    attachment(CSV, 'report.csv', 'text/csv'),
    attachment(XLSX, 'sheet.xlsx'),
    attachment(TXT, '../../../etc/notes.txt'),
  ]);
});
afterAll(() => t.close());

const stored = () => storedNames(t.app.ctx.files, TICKETS_FOLDER);
const staged = async () => (await fs.readdir(t.app.ctx.stagingDir)).sort();
const ticketCount = async () =>
  Number(
    (
      await t.db
        .selectFrom('tickets')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const download = (token: string | undefined, ticketId: string, attachmentId: string) =>
  t.request({
    method: 'GET',
    url: `/api/tickets/${ticketId}/attachments/${attachmentId}`,
    token,
  });

describe('ticket attachments: upload', () => {
  it('stores images, pdf, csv, xlsx and txt under generated names; keeps safe names', async () => {
    expect(ticket.attachments.map((a) => [a.name, a.mime])).toEqual([
      ['screen.png', 'image/png'],
      ['invoice.pdf', 'application/pdf'],
      ['report.csv', 'text/csv'],
      ['sheet.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      ['notes.txt', 'text/plain'],
    ]);
    const names = await stored();
    expect(names).toHaveLength(5);
    for (const name of names) expect(name).toMatch(/^[0-9a-f-]{36}\.(png|pdf|csv|xlsx|txt)$/);
    // Nothing was written where the client's name pointed.
    await expect(fs.stat(path.join(t.dataDir, 'etc'))).rejects.toThrow();
    await expect(fs.stat(path.join(t.dataDir, 'uploads', 'etc'))).rejects.toThrow();
  });

  it('refuses a sixth file, a file over 5 MB and a file of another type; leaves nothing', async () => {
    const before = { files: await stored(), staged: await staged(), tickets: await ticketCount() };
    const cases: [ReturnType<typeof attachment>[], number, string][] = [
      [
        Array.from({ length: 6 }, (_, i) => attachment(CSV, `${i}.csv`)),
        400,
        msg.ticketTooManyAttachments,
      ],
      [
        [attachment(TINY_PNG, 'a.png'), attachment(Buffer.alloc(5 * 1024 * 1024 + 1, 0x41))],
        413,
        'File is too large. Max size is 5MB.',
      ],
      [[attachment(Buffer.from('MZ\x90\x00\x03binary', 'latin1'), 'x.txt')], 400, ''],
      [[attachment(Buffer.from('PK\x03\x04not a workbook', 'latin1'), 'x.xlsx')], 400, ''],
      [[attachment(Buffer.from('text\0with nul'), 'x.txt')], 400, ''],
      // Text at the start, binary past the first 256 kB: the whole file is read.
      [
        [attachment(Buffer.concat([Buffer.alloc(300 * 1024, 0x61), Buffer.from([0, 1, 2])]))],
        400,
        '',
      ],
      [[attachment(Buffer.from([0xc3, 0x28]), 'bad-utf8.txt')], 400, ''],
    ];
    for (const [files, status, message] of cases) {
      const res = await postTicket(t, h.u1.token, {}, files);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toEqual({ message: message || msg.ticketAttachmentType });
    }
    // A related record out of scope, after the files arrived: they go too.
    const rel = await postTicket(t, h.u1.token, { relatedUser: h.u3.user.id }, [
      attachment(TINY_PNG, 'a.png'),
    ]);
    expect(rel.statusCode).toBe(404);
    expect(await stored()).toEqual(before.files);
    expect(await staged()).toEqual(before.staged);
    expect(await ticketCount()).toBe(before.tickets);
  });

  it('accepts exactly five files of exactly 5 MB', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024, 0x61);
    const files = Array.from({ length: 5 }, (_, i) => attachment(big, `${i}.txt`));
    const res = await postTicket(t, h.u2.token, {}, files);
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe('ticket attachments: download', () => {
  it('sends the file as an attachment with nosniff to those who see the ticket', async () => {
    const txt = ticket.attachments[4]!;
    for (const token of [h.u1.token, h.s1.token, h.r1.token, h.admin]) {
      const res = await download(token, ticket._id, txt.id);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(TXT)).toBe(true);
      expect(res.headers['content-type']).toBe('text/plain');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="notes.txt"; filename*=UTF-8''notes.txt`,
      );
    }
  });

  it('answers 404 to those who do not see the ticket, and 401 without a token', async () => {
    const png = ticket.attachments[0]!;
    for (const token of [h.u2.token, h.r2.token, h.u3.token]) {
      expect((await download(token, ticket._id, png.id)).statusCode).toBe(404);
    }
    expect((await download(undefined, ticket._id, png.id)).statusCode).toBe(401);
  });

  it("never serves another ticket's attachment through a ticket one can see", async () => {
    const other = await openTicket(t, h.u3.token, {}, [attachment(CSV, 'secret.csv')]);
    const secret = other.attachments[0]!;
    expect((await download(h.u1.token, ticket._id, secret.id)).statusCode).toBe(404);
    expect((await download(h.admin, ticket._id, randomUUID())).statusCode).toBe(404);
  });

  it('refuses path traversal in either path parameter', async () => {
    const name = (await stored())[0]!;
    const attempts = [
      `/api/tickets/${ticket._id}/attachments/..%2F..%2F..%2Fetc%2Fpasswd`,
      `/api/tickets/${ticket._id}/attachments/..%2F${name}`,
      `/api/tickets/${ticket._id}/attachments/${name}`,
      `/api/tickets/${ticket._id}/attachments/%2e%2e%2f%2e%2e%2fconfig`,
      `/api/tickets/..%2F..%2F/attachments/${ticket.attachments[0]!.id}`,
      `/api/tickets/${ticket._id}/attachments/../../../../etc/passwd`,
      `/api/tickets/${ticket._id}/attachments/${ticket.attachments[0]!.id}%00.png`,
    ];
    for (const url of attempts) {
      const res = await t.request({ method: 'GET', url, token: h.admin });
      expect([400, 404], url).toContain(res.statusCode);
      expect(res.headers['content-disposition'], url).toBeUndefined();
    }
  });

  it('answers 410 with its message, not 500, when the store lost the file', async () => {
    const lost = await openTicket(t, h.u1.token, {}, [attachment(CSV, 'lost.csv')]);
    const [row] = await t.db
      .selectFrom('ticket_attachments')
      .select('stored_name')
      .where('id', '=', lost.attachments[0]!.id)
      .execute();
    await t.app.ctx.files.delete(storageKey(TICKETS_FOLDER, row!.stored_name));
    const res = await download(h.u1.token, lost._id, lost.attachments[0]!.id);
    expect(res.statusCode).toBe(410);
    expect(res.json()).toEqual({ message: msg.fileGone });
    expect(res.headers['content-disposition']).toBeUndefined();
  });
});

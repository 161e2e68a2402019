import { expect } from 'vitest';
import type { TicketActionReply, TicketDetail } from '@herald/contract';
import type { TestApp } from '../../../test/harness.js';
import { multipart, type FilePart } from '../users/test-fixtures.js';

/** Test-only helpers shared by the tickets tests. */

export function postTicket(
  t: TestApp,
  token: string | undefined,
  fields: Record<string, string> = {},
  files: FilePart[] = [],
) {
  const body = multipart({ subject: 'Help', description: 'Something broke', ...fields }, ...files);
  return t.request({
    method: 'POST',
    url: '/api/tickets',
    token,
    payload: body.payload,
    headers: body.headers,
  });
}

/** Opens a ticket as `token` and returns it. */
export async function openTicket(
  t: TestApp,
  token: string,
  fields: Record<string, string> = {},
  files: FilePart[] = [],
): Promise<TicketDetail> {
  const res = await postTicket(t, token, fields, files);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<TicketActionReply>().ticket;
}

export function attachment(data: Buffer, filename = 'file.bin', type = 'application/octet-stream') {
  return { field: 'attachments', filename, type, data } satisfies FilePart;
}

export const put = (t: TestApp, token: string | undefined, url: string, payload?: object) =>
  t.request({ method: 'PUT', url, token, ...(payload ? { payload } : {}) });

/** Notifications per user id for the ticket events, as rows of (user, event, message). */
export async function ticketNotifications(t: TestApp) {
  return t.db
    .selectFrom('notifications')
    .select(['user_id', 'event_type', 'message', 'link'])
    .where('event_type', 'like', 'ticket_%')
    .orderBy('created_at')
    .execute();
}

/** A minimal xlsx head: a zip whose first entries name the workbook parts. */
export const XLSX = Buffer.concat([
  Buffer.from('PK\x03\x04', 'latin1'),
  Buffer.alloc(26),
  Buffer.from('[Content_Types].xml', 'latin1'),
  Buffer.alloc(40),
  Buffer.from('PK\x03\x04', 'latin1'),
  Buffer.alloc(26),
  Buffer.from('xl/workbook.xml', 'latin1'),
  Buffer.alloc(40),
]);

import { expect } from 'vitest';
import type {
  AdminAnnouncement,
  AnnouncementList,
  CreateAnnouncementReply,
} from '@herald/contract';
import type { TestApp } from '../../../test/harness.js';
import { multipart, type FilePart } from '../users/test-fixtures.js';

/** Test-only helpers shared by the announcements tests. */

export function postAnnouncement(
  t: TestApp,
  token: string | undefined,
  fields: Record<string, string> = {},
  files: FilePart[] = [],
) {
  const body = multipart({ title: 'Hello', message: 'News', ...fields }, ...files);
  return t.request({
    method: 'POST',
    url: '/api/announcements',
    token,
    payload: body.payload,
    headers: body.headers,
  });
}

/** Posts an announcement as `token` (an Admin) and returns it. */
export async function createAnnouncement(
  t: TestApp,
  token: string,
  fields: Record<string, string> = {},
  files: FilePart[] = [],
): Promise<AdminAnnouncement> {
  const res = await postAnnouncement(t, token, fields, files);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreateAnnouncementReply>().announcement;
}

export function imagePart(data: Buffer, filename = 'picture.png', type = 'image/png'): FilePart {
  return { field: 'image', filename, type, data };
}

/** The titles of a list the caller gets from `url`, in the order served. */
export async function titlesAt(t: TestApp, token: string, url: string): Promise<string[]> {
  const res = await t.request({ method: 'GET', url, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AnnouncementList>().announcements.map((a) => a.title);
}

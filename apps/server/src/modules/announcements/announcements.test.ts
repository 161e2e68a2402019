import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as msg, type AdminAnnouncementList, type AnnouncementList } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { buildHierarchy, TINY_PNG, type Hierarchy } from '../users/test-fixtures.js';
import { storedNames } from '../../../test/storage-fixtures.js';
import { IMAGES_FOLDER } from './announcement-files.js';
import {
  createAnnouncement,
  imagePart,
  postAnnouncement,
  titlesAt,
} from './announcements.test-fixtures.js';

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  await createAnnouncement(t, h.admin, { title: 'to all' });
  await createAnnouncement(t, h.admin, { title: 'to resellers', visibilityType: 'reseller' });
  await createAnnouncement(t, h.admin, {
    title: 'to u1 and r2',
    visibilityType: 'specific',
    visibilityTargets: ` ${h.u1.user.email.toUpperCase()}, ${h.r2.user.email},,`,
  });
});
afterAll(() => t.close());

const historyOf = (token: string) => titlesAt(t, token, '/api/announcements/history');
const mine = (token: string) => titlesAt(t, token, '/api/announcements');

describe('visibility by type and role', () => {
  it('all: everyone; reseller: Resellers and Sub-Resellers; specific: the listed users', async () => {
    const expected: [string, string[]][] = [
      [h.admin, ['to all']],
      [h.r1.token, ['to resellers', 'to all']],
      [h.s1.token, ['to resellers', 'to all']],
      [h.u1.token, ['to u1 and r2', 'to all']],
      [h.u2.token, ['to all']],
      [h.r2.token, ['to u1 and r2', 'to resellers', 'to all']],
      [h.u3.token, ['to all']],
    ];
    for (const [token, titles] of expected) {
      expect(await mine(token)).toEqual(titles);
      expect(await historyOf(token)).toEqual(titles);
    }
  });

  it('does not show a user whom else a specific announcement targets', async () => {
    const res = await t.request({ method: 'GET', url: '/api/announcements', token: h.u1.token });
    const list = res.json<AnnouncementList>();
    const specific = list.announcements.find((a) => a.title === 'to u1 and r2');
    expect(specific?.visibility).toEqual({ type: 'specific' });
    expect(res.body).not.toContain(h.r2.user.email);
  });

  it('Admin lists every announcement with its targets', async () => {
    const res = await t.request({ method: 'GET', url: '/api/announcements/all', token: h.admin });
    expect(res.statusCode, res.body).toBe(200);
    const all = res.json<AdminAnnouncementList>().announcements;
    expect(all.map((a) => a.title)).toEqual(['to u1 and r2', 'to resellers', 'to all']);
    expect(all[0]?.visibility).toEqual({
      type: 'specific',
      targets: [h.r2.user.email, h.u1.user.email].sort(),
    });
    expect(all[2]?.visibility).toEqual({ type: 'all', targets: [] });
  });
});

describe('Admin-only routes', () => {
  it('answers 403 to every other role and 401 without a token', async () => {
    const some = (await createAnnouncement(t, h.admin, { title: 'guarded' }))._id;
    for (const token of [h.r1.token, h.s1.token, h.u1.token]) {
      expect((await postAnnouncement(t, token)).statusCode).toBe(403);
      const all = await t.request({ method: 'GET', url: '/api/announcements/all', token });
      expect(all.statusCode).toBe(403);
      const del = await t.request({ method: 'DELETE', url: `/api/announcements/${some}`, token });
      expect(del.statusCode).toBe(403);
    }
    expect((await postAnnouncement(t, undefined)).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/announcements' })).statusCode).toBe(401);
    await t.request({ method: 'DELETE', url: `/api/announcements/${some}`, token: h.admin });
  });
});

describe('POST /api/announcements', () => {
  const refused: [Record<string, string>, string][] = [
    [{ title: ' ' }, msg.announcementTitleRequired],
    [{ message: '' }, msg.announcementMessageRequired],
    [{ link: 'not a url' }, msg.announcementLinkInvalid],
    [{ link: 'javascript:alert(1)' }, msg.announcementLinkInvalid],
    [{ link: 'ftp://example.com/x' }, msg.announcementLinkInvalid],
    [{ expiryDate: 'tomorrow' }, msg.announcementExpiryInvalid],
    [{ expiryDate: '2026-02-30' }, msg.announcementExpiryInvalid],
    [{ expiryDate: '2001-01-01' }, msg.announcementExpiryPast],
    [{ visibilityType: 'everyone' }, msg.announcementVisibilityInvalid],
    [{ visibilityType: 'specific' }, msg.announcementTargetsRequired],
    [{ visibilityTargets: 'a@b.co' }, msg.announcementTargetsOnlySpecific],
    [
      { visibilityType: 'specific', visibilityTargets: 'nobody@nowhere.test' },
      msg.announcementTargetUnknown('nobody@nowhere.test'),
    ],
    [
      { visibilityType: 'specific', visibilityTargets: 'not-an-email' },
      'Enter a valid email address.',
    ],
  ];
  it.each(refused)('refuses %j with its message', async (fields, message) => {
    const res = await postAnnouncement(t, h.admin, fields);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ message });
  });

  it('stores a form’s CRLF line breaks as LF', async () => {
    const a = await createAnnouncement(t, h.admin, {
      title: 'lines',
      message: 'one\r\ntwo\rthree',
    });
    expect(a.message).toBe('one\ntwo\nthree');
  });

  it('keeps an http(s) link and an expiry date', async () => {
    const a = await createAnnouncement(t, h.admin, {
      title: 'linked',
      link: 'https://example.com/news?a=1',
      expiryDate: '2999-12-31',
    });
    expect(a).toMatchObject({
      link: 'https://example.com/news?a=1',
      expiryDate: '2999-12-31T23:59:59.999Z',
      image: null,
    });
  });

  it('takes an image by its content, stores it under a generated name and serves it', async () => {
    const a = await createAnnouncement(t, h.admin, { title: 'pictured' }, [
      imagePart(TINY_PNG, '../../evil.php', 'application/x-php'),
    ]);
    expect(a.image).toMatch(/^\/api\/files\/announcements\/[0-9a-f-]{36}\.png$/);
    const res = await t.request({ method: 'GET', url: a.image as string });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.equals(TINY_PNG)).toBe(true);
  });

  it('refuses a file that is not an image, whatever its name and type say', async () => {
    const before = await imageFiles();
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const res = await postAnnouncement(t, h.admin, { title: 'fake' }, [
      imagePart(html, 'photo.png', 'image/png'),
    ]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ message: msg.announcementImageType });
    const pdf = await postAnnouncement(t, h.admin, { title: 'pdf' }, [
      imagePart(Buffer.from('%PDF-1.4\n'), 'x.png'),
    ]);
    expect(pdf.statusCode).toBe(400);
    expect(await imageFiles()).toEqual(before);
    expect(await titlesAt(t, h.admin, '/api/announcements/all')).not.toContain('fake');
  });

  it('refuses an image over 3 MB with 413', async () => {
    const big = Buffer.concat([TINY_PNG, Buffer.alloc(3 * 1024 * 1024)]);
    const res = await postAnnouncement(t, h.admin, { title: 'big' }, [imagePart(big)]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: msg.announcementImageTooLarge(3) });
  });

  it('refuses a second file, another file field and a JSON body, storing nothing', async () => {
    const before = await imageFiles();
    const two = await postAnnouncement(t, h.admin, { title: 'two' }, [
      imagePart(TINY_PNG),
      imagePart(TINY_PNG),
    ]);
    expect(two.statusCode).toBeGreaterThanOrEqual(400);
    expect(two.statusCode).toBeLessThan(500);
    const other = await postAnnouncement(t, h.admin, { title: 'other' }, [
      { ...imagePart(TINY_PNG), field: 'attachments' },
    ]);
    expect(other.statusCode).toBe(400);
    const json = await t.request({
      method: 'POST',
      url: '/api/announcements',
      token: h.admin,
      payload: { title: 'json', message: 'x' },
    });
    expect(json.statusCode).toBe(400);
    expect(await imageFiles()).toEqual(before);
  });

  it('serves only generated names from the image route', async () => {
    for (const name of ['..%2F..%2Fetc%2Fpasswd', 'x.png', '..', `${'0'.repeat(36)}.png`]) {
      const res = await t.request({ method: 'GET', url: `/api/files/announcements/${name}` });
      expect(res.statusCode).toBe(404);
    }
  });
});

describe('expiry', () => {
  it('an expired announcement leaves /api/announcements but stays in history', async () => {
    const a = await createAnnouncement(t, h.admin, { title: 'expiring', expiryDate: '2999-01-01' });
    await t.db
      .updateTable('announcements')
      .set({ expiry_date: new Date(Date.now() - 1000) })
      .where('id', '=', a._id)
      .execute();
    expect(await mine(h.u2.token)).not.toContain('expiring');
    expect(await historyOf(h.u2.token)).toContain('expiring');
    const seen = await t.request({
      method: 'PUT',
      url: `/api/announcements/${a._id}/seen`,
      token: h.u2.token,
    });
    expect(seen.statusCode).toBe(204);
  });
});

describe('PUT /api/announcements/{id}/seen', () => {
  it('marks it seen for the caller only, once however often it is sent', async () => {
    const a = await createAnnouncement(t, h.admin, { title: 'seen test' });
    const state = async (token: string) => {
      const res = await t.request({ method: 'GET', url: '/api/announcements', token });
      const list = res.json<AnnouncementList>();
      return { seen: list.announcements.find((x) => x._id === a._id)?.seen, n: list.unseenCount };
    };
    const u1Before = await state(h.u1.token);
    const u2Before = await state(h.u2.token);
    expect(u1Before.seen).toBe(false);
    for (let i = 0; i < 2; i++) {
      const res = await t.request({
        method: 'PUT',
        url: `/api/announcements/${a._id}/seen`,
        token: h.u1.token,
      });
      expect(res.statusCode).toBe(204);
    }
    expect(await state(h.u1.token)).toEqual({ seen: true, n: (u1Before.n ?? 0) - 1 });
    expect(await state(h.u2.token)).toEqual(u2Before);
  });

  it('answers 404 outside the caller’s audience and for unknown ids', async () => {
    const a = await createAnnouncement(t, h.admin, {
      title: 'only r2',
      visibilityType: 'specific',
      visibilityTargets: h.r2.user.email,
    });
    const r = await createAnnouncement(t, h.admin, {
      title: 'resellers',
      visibilityType: 'reseller',
    });
    for (const [token, id] of [
      [h.u1.token, a._id],
      [h.r1.token, a._id],
      [h.u1.token, r._id],
      [h.admin, r._id],
      [h.u1.token, '00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const res = await t.request({ method: 'PUT', url: `/api/announcements/${id}/seen`, token });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: msg.announcementNotFound });
    }
  });
});

describe('DELETE /api/announcements/{id}', () => {
  it('removes the announcement and its image file', async () => {
    const a = await createAnnouncement(t, h.admin, { title: 'doomed' }, [imagePart(TINY_PNG)]);
    const name = path.basename(a.image as string);
    expect(await imageFiles()).toContain(name);
    await t.request({ method: 'PUT', url: `/api/announcements/${a._id}/seen`, token: h.u1.token });
    const res = await t.request({
      method: 'DELETE',
      url: `/api/announcements/${a._id}`,
      token: h.admin,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: msg.announcementDeleted });
    expect(await imageFiles()).not.toContain(name);
    expect(await historyOf(h.u1.token)).not.toContain('doomed');
    expect((await t.request({ method: 'GET', url: a.image as string })).statusCode).toBe(404);
    const again = await t.request({
      method: 'DELETE',
      url: `/api/announcements/${a._id}`,
      token: h.admin,
    });
    expect(again.statusCode).toBe(404);
  });
});

describe('lists are paged', () => {
  it('walks the history with limit and cursor, newest first', async () => {
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const url: string = `/api/announcements/history?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await t.request({ method: 'GET', url, token: h.r2.token });
      expect(res.statusCode, res.body).toBe(200);
      const list = res.json<AnnouncementList>();
      expect(list.announcements.length).toBeLessThanOrEqual(2);
      seen.push(...list.announcements.map((a) => a.title));
      cursor = list.nextCursor;
    }
    expect(seen).toEqual(await historyOf(h.r2.token));
    for (const q of ['limit=0', 'limit=201', 'cursor=abc']) {
      const res = await t.request({
        method: 'GET',
        url: `/api/announcements?${q}`,
        token: h.u1.token,
      });
      expect(res.statusCode).toBe(400);
    }
  });
});

function imageFiles(): Promise<string[]> {
  return storedNames(t.app.ctx.files, IMAGES_FOLDER);
}

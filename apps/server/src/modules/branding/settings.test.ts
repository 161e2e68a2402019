import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_COMPANY_NAME,
  server as msg,
  type Branding,
  type LoginReply,
  type WhitelabelSettings,
  type WhitelabelSettingsReply,
} from '@herald/contract';
import { storedNames } from '../../../test/storage-fixtures.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, type TestApp } from '../../../test/harness.js';
import {
  TINY_JPEG,
  TINY_PNG,
  buildHierarchy,
  multipart,
  type FilePart,
  type Hierarchy,
} from '../users/test-fixtures.js';
import { LOGOS_FOLDER } from './logo-files.js';

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

const URL = '/api/whitelabel/settings';

async function branding(token: string) {
  const res = await t.request({ method: 'GET', url: '/api/whitelabel/my-branding', token });
  expect(res.statusCode).toBe(200);
  return res.json<Branding>();
}

async function settings(token: string) {
  const res = await t.request({ method: 'GET', url: URL, token });
  return { status: res.statusCode, body: res.json<WhitelabelSettings>() };
}

function save(token: string, fields: Record<string, string>, ...files: FilePart[]) {
  return t.request({ method: 'POST', url: URL, token, ...multipart(fields, ...files) });
}

const logo = (data: Buffer, filename = 'logo.png', type = 'image/png'): FilePart => ({
  field: 'companyLogo',
  filename,
  type,
  data,
});

const GIF = Buffer.concat([
  Buffer.from('GIF89a', 'latin1'),
  Buffer.from([1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x21, 0xf9, 0x04, 0, 0, 0, 0]),
  Buffer.from([0, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0, 0x3b]),
]);

const logoFiles = () => storedNames(t.app.ctx.files, LOGOS_FOLDER);

describe('whitelabel settings: who may use them', () => {
  it('answers 403 to a User, on both GET and POST, and stores nothing', async () => {
    const get = await t.request({ method: 'GET', url: URL, token: h.u1.token });
    expect(get.statusCode).toBe(403);
    expect(get.json()).toHaveProperty('message');
    const post = await save(h.u1.token, { companyName: 'Mine' }, logo(TINY_PNG));
    expect(post.statusCode).toBe(403);
    expect(post.json()).toHaveProperty('message');
    expect((await branding(h.u1.token)).companyName).toBe(DEFAULT_COMPANY_NAME);
    expect(await logoFiles()).toEqual([]);
  });

  it('answers 401 without a token', async () => {
    expect((await t.request({ method: 'GET', url: URL })).statusCode).toBe(401);
    expect((await t.request({ method: 'POST', url: URL, ...multipart({}) })).statusCode).toBe(401);
  });

  it('shows a Reseller and a Sub-Reseller their own fields, empty at first', async () => {
    for (const token of [h.r1.token, h.s1.token, h.admin]) {
      expect(await settings(token)).toEqual({
        status: 200,
        body: { companyName: null, companyLogo: null },
      });
    }
  });
});

describe('POST /api/whitelabel/settings and branding down the chain', () => {
  it('sets name and logo; the users below see them, the nearest branded creator wins', async () => {
    const res = await save(h.r1.token, { companyName: '  Acme Corp ' }, logo(TINY_PNG));
    expect(res.statusCode).toBe(200);
    const reply = res.json<WhitelabelSettingsReply>();
    expect(reply.message).toBe(msg.whitelabelUpdated);
    expect(reply.companyName).toBe('Acme Corp');
    expect(reply.companyLogo).toMatch(/^\/api\/files\/logos\/[0-9a-f-]{36}\.png$/);
    const acme = { companyName: 'Acme Corp', companyLogo: reply.companyLogo };
    expect((await settings(h.r1.token)).body).toEqual(acme);

    // Two levels below the reseller (r1 > s1 > u1) and one (r1 > u2).
    for (const m of [h.r1, h.s1, h.u1, h.u2]) expect(await branding(m.token)).toEqual(acme);
    // Another reseller's user and the Admin keep the house branding.
    expect(await branding(h.u3.token)).toEqual({
      companyName: DEFAULT_COMPANY_NAME,
      companyLogo: null,
    });
    expect((await branding(h.admin)).companyName).toBe(DEFAULT_COMPANY_NAME);

    // The Sub-Reseller in between brands itself: it is nearer to u1 than r1 is.
    const sub = await save(h.s1.token, { companyName: 'Sub Co' });
    expect(sub.statusCode).toBe(200);
    const subCo = { companyName: 'Sub Co', companyLogo: null };
    expect(await branding(h.u1.token)).toEqual(subCo);
    expect(await branding(h.s1.token)).toEqual(subCo);
    expect(await branding(h.u2.token)).toEqual(acme);

    const file = await t.request({ method: 'GET', url: reply.companyLogo! });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(TINY_PNG)).toBe(true);
  });

  it('refuses a logo by its content, whatever its name or declared type', async () => {
    const before = (await settings(h.r1.token)).body;
    const files = await logoFiles();
    const cases: FilePart[] = [
      logo(Buffer.from('definitely not an image\n'), 'logo.png', 'image/png'),
      logo(GIF, 'logo.png', 'image/png'),
      logo(GIF, 'logo.gif', 'image/gif'),
    ];
    for (const file of cases) {
      const res = await save(h.r1.token, { companyName: 'Changed' }, file);
      expect(res.statusCode, file.filename).toBe(400);
      expect(res.json()).toEqual({ message: msg.logoType });
    }
    expect((await settings(h.r1.token)).body).toEqual(before);
    expect((await logoFiles()).sort()).toEqual(files.sort());
  });

  it('takes a JPEG named anything, removes the replaced file after commit, and keeps the name', async () => {
    const old = (await settings(h.r1.token)).body.companyLogo!;
    const res = await save(
      h.r1.token,
      {},
      logo(TINY_JPEG, 'photo.bin', 'application/octet-stream'),
    );
    expect(res.statusCode).toBe(200);
    const now = res.json<WhitelabelSettingsReply>();
    expect(now.companyName).toBe('Acme Corp');
    expect(now.companyLogo).toMatch(/\.jpg$/);
    expect((await t.request({ method: 'GET', url: old })).statusCode).toBe(404);
    expect(await logoFiles()).toEqual([path.basename(now.companyLogo!)]);
    expect(await branding(h.u2.token)).toEqual({
      companyName: 'Acme Corp',
      companyLogo: now.companyLogo,
    });
  });

  it('removes the logo and clears the name when asked, deleting the file', async () => {
    const old = (await settings(h.r1.token)).body.companyLogo!;
    const res = await save(h.r1.token, { companyName: '', removeLogo: 'true' });
    expect(res.statusCode).toBe(200);
    expect(res.json<WhitelabelSettingsReply>()).toMatchObject({
      companyName: null,
      companyLogo: null,
    });
    expect((await t.request({ method: 'GET', url: old })).statusCode).toBe(404);
    expect(await logoFiles()).toEqual([]);
    expect((await branding(h.u2.token)).companyName).toBe(DEFAULT_COMPANY_NAME);
  });

  it('validates the fields with the contract', async () => {
    const long = await save(h.r1.token, { companyName: 'x'.repeat(121) });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ message: 'Company name must be at most 120 characters.' });
    const unknown = await save(h.r1.token, { role: 'Admin' });
    expect(unknown.statusCode).toBe(400);
    const wrongField = await save(h.r1.token, {}, { ...logo(TINY_PNG), field: 'avatar' });
    expect(wrongField.statusCode).toBe(400);
    expect(await logoFiles()).toEqual([]);
  });

  it('lets the Admin set the house branding, which every user without a nearer one shows', async () => {
    const res = await save(h.admin, { companyName: 'House' }, logo(TINY_PNG));
    expect(res.statusCode).toBe(200);
    const house = res.json<WhitelabelSettingsReply>();
    expect(await branding(h.u3.token)).toEqual({
      companyName: 'House',
      companyLogo: house.companyLogo,
    });
    expect((await branding(h.u1.token)).companyName).toBe('Sub Co');

    // Edit User on the Admin (the form sends the stored company name back, or none) keeps it.
    const login = await t.request({
      method: 'POST',
      url: '/api/login',
      payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    const adminId = login.json<LoginReply>().user.id;
    const sends: Record<string, string>[] = [{}, { companyName: 'House' }];
    for (const extra of sends) {
      const fields = { name: 'Admin Renamed', email: ADMIN_EMAIL, ...extra };
      const edit = await t.request({
        method: 'PUT',
        url: `/api/users/update/${adminId}`,
        token: h.admin,
        ...multipart(fields),
      });
      expect(edit.statusCode, JSON.stringify(extra)).toBe(200);
      expect(await branding(h.u3.token)).toEqual({
        companyName: 'House',
        companyLogo: house.companyLogo,
      });
    }
    const setByEdit = await t.request({
      method: 'PUT',
      url: `/api/users/update/${adminId}`,
      token: h.admin,
      ...multipart({ name: 'Admin', email: ADMIN_EMAIL, companyName: 'Other' }),
    });
    expect(setByEdit.statusCode).toBe(400);
    expect(setByEdit.json()).toEqual({ message: msg.whitelabelOnlyBranded });

    await save(h.admin, { removeLogo: 'true' });
    await save(h.admin, { companyName: '' });
    expect((await branding(h.u3.token)).companyName).toBe(DEFAULT_COMPANY_NAME);
  });
});

describe('GET /api/whitelabel/my-branding cost', () => {
  it('reads the branding in one query, however deep the chain', async () => {
    await branding(h.u1.token); // the session is cached after its first use
    const query = vi.spyOn(pg.Client.prototype, 'query');
    try {
      expect((await branding(h.u1.token)).companyName).toBe('Sub Co');
      const texts = query.mock.calls.map(([q]) =>
        typeof q === 'string' ? q : (q as { text: string }).text,
      );
      const brandingQueries = texts.filter((q) => q.includes('company_'));
      expect(brandingQueries).toHaveLength(1);
      expect(texts.length).toBeLessThanOrEqual(1);
    } finally {
      query.mockRestore();
    }
  });
});

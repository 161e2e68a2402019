import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_COMPANY_NAME,
  MAX_LOGO_BYTES,
  server as msg,
  type Branding,
  type UpdateUserReply,
  type User,
} from '@herald/contract';
import { storedNames } from '../../../test/storage-fixtures.js';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import {
  TINY_JPEG,
  TINY_PNG,
  buildHierarchy,
  formOf,
  multipart,
  type FilePart,
  type Hierarchy,
  type Member,
} from '../users/test-fixtures.js';
import { LOGOS_FOLDER } from './logo-files.js';

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

async function branding(token: string | undefined) {
  const res = await t.request({ method: 'GET', url: '/api/whitelabel/my-branding', token });
  return { status: res.statusCode, body: res.json<Branding>() };
}

/** Edit User as an Admin (or `token`), with the form's current fields plus `changes`. */
async function edit(
  target: Member,
  changes: Record<string, string>,
  file?: FilePart,
  token = h.admin,
) {
  const prof = await t.request({
    method: 'GET',
    url: `/api/users/profile/${target.user.id}`,
    token: h.admin,
  });
  const fields = { ...formOf(prof.json<{ user: User }>().user), ...changes };
  const body = file ? multipart(fields, file) : multipart(fields);
  return t.request({ method: 'PUT', url: `/api/users/update/${target.user.id}`, token, ...body });
}

const png = (data = TINY_PNG, filename = 'logo.png'): FilePart => ({
  field: 'companyLogo',
  filename,
  type: 'image/png',
  data,
});

const logoFiles = () => storedNames(t.app.ctx.files, LOGOS_FOLDER);

describe('GET /api/whitelabel/my-branding', () => {
  it('is the default name without a logo when nobody up the chain set one', async () => {
    for (const token of [h.admin, h.r1.token, h.u1.token]) {
      expect(await branding(token)).toEqual({
        status: 200,
        body: { companyName: DEFAULT_COMPANY_NAME, companyLogo: null },
      });
    }
  });

  it("inherits the nearest creator's branding, and a closer one wins", async () => {
    expect((await edit(h.r1, { companyName: 'Acme' })).statusCode).toBe(200);
    for (const m of [h.r1, h.s1, h.u1, h.u2]) {
      expect((await branding(m.token)).body).toEqual({ companyName: 'Acme', companyLogo: null });
    }
    expect((await branding(h.u3.token)).body.companyName).toBe(DEFAULT_COMPANY_NAME);
    expect((await branding(h.admin)).body.companyName).toBe(DEFAULT_COMPANY_NAME);

    expect((await edit(h.s1, { companyName: 'Sub Co' })).statusCode).toBe(200);
    expect((await branding(h.u1.token)).body.companyName).toBe('Sub Co');
    expect((await branding(h.s1.token)).body.companyName).toBe('Sub Co');
    expect((await branding(h.u2.token)).body.companyName).toBe('Acme');
  });

  it('answers 401 without a token', async () => {
    expect((await branding(undefined)).status).toBe(401);
  });
});

describe('company logo upload and GET /api/files/logos/:name', () => {
  it('stores a real PNG by its bytes and serves it publicly as an image', async () => {
    const res = await edit(h.r2, {}, png());
    expect(res.statusCode).toBe(200);
    const logo = res.json<UpdateUserReply>().user.companyLogo!;
    expect(logo).toMatch(/^\/api\/files\/logos\/[0-9a-f-]{36}\.png$/);
    expect((await branding(h.u3.token)).body).toEqual({
      companyName: DEFAULT_COMPANY_NAME,
      companyLogo: logo,
    });

    const file = await t.request({ method: 'GET', url: logo });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(file.rawPayload.equals(TINY_PNG)).toBe(true);
  });

  it('takes a JPEG whatever the name, replaces the old file and can remove the logo', async () => {
    const before = (await edit(h.r2, {})).json<UpdateUserReply>().user.companyLogo!;
    const jpeg: FilePart = {
      field: 'companyLogo',
      filename: 'photo.bin',
      type: 'application/octet-stream',
      data: TINY_JPEG,
    };
    const res = await edit(h.r2, {}, jpeg);
    const after = res.json<UpdateUserReply>().user.companyLogo!;
    expect(after).toMatch(/\.jpg$/);
    expect((await t.request({ method: 'GET', url: after })).headers['content-type']).toBe(
      'image/jpeg',
    );
    expect((await t.request({ method: 'GET', url: before })).statusCode).toBe(404);

    const removed = await edit(h.r2, { removeLogo: 'true' });
    expect(removed.json<UpdateUserReply>().user.companyLogo).toBeNull();
    expect((await t.request({ method: 'GET', url: after })).statusCode).toBe(404);
    expect(await logoFiles()).toEqual([]);
  });

  it('refuses a file that is not an image, a logo too large, and leaves no file behind', async () => {
    const text = png(Buffer.from('definitely not an image'), 'evil.png');
    const bad = await edit(h.r1, {}, text);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: msg.logoType });

    const big = Buffer.concat([TINY_PNG, Buffer.alloc(MAX_LOGO_BYTES)]);
    const large = await edit(h.r1, {}, png(big));
    expect(large.statusCode).toBe(413);
    expect(large.json()).toEqual({ message: msg.logoTooLarge });

    const onUser = await edit(h.u2, {}, png());
    expect(onUser.statusCode).toBe(400);
    expect(onUser.json()).toEqual({ message: msg.whitelabelOnlyBranded });

    const byReseller = await edit(h.u2, {}, png(), h.r1.token);
    expect(byReseller.statusCode).toBe(403);
    expect(byReseller.json()).toEqual({ message: msg.fieldNotAllowed('company logo') });

    const wrongField = await edit(h.r1, {}, { ...png(), field: 'avatar' });
    expect(wrongField.statusCode).toBe(400);
    expect(await logoFiles()).toEqual([]);
  });

  it('serves only generated names: anything else is 404', async () => {
    const names = [
      '00000000-0000-4000-8000-000000000000.png',
      'logo.png',
      '00000000-0000-4000-8000-000000000000.gif',
      '..%2F..%2Fetc%2Fpasswd',
      '%2E%2E%2Fsecrets',
    ];
    for (const name of names) {
      const res = await t.request({ method: 'GET', url: `/api/files/logos/${name}` });
      expect(res.statusCode, name).toBe(404);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const traversal = await t.request({ method: 'GET', url: '/api/files/logos/../../health' });
    expect(traversal.headers['content-type']).not.toMatch(/^image\//);
  });
});

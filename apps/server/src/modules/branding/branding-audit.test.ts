import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WhitelabelSettingsReply } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { lastAuditId, expectNoEntrySince, onlyEntrySince } from '../audit/audit.test-fixtures.js';
import { TINY_PNG, multipart, type FilePart } from '../users/test-fixtures.js';

/** The audit entry of Whitelabel Settings (docs/audit.md). */

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

const save = (token: string, fields: Record<string, string>, ...files: FilePart[]) =>
  t.request({
    method: 'POST',
    url: '/api/whitelabel/settings',
    token,
    ...multipart(fields, ...files),
  });

const png: FilePart = {
  field: 'companyLogo',
  filename: 'logo.png',
  type: 'image/png',
  data: TINY_PNG,
};

describe('branding.update', () => {
  it('a save writes one entry with the changed fields, of the caller’s own branding', async () => {
    const reseller = await t.createUser(admin, { role: 'Reseller' });
    let mark = await lastAuditId(t.db);
    const res = await save(reseller.token, { companyName: 'Acme Audit' }, png);
    expect(res.statusCode, res.body).toBe(200);
    const { companyLogo } = res.json<WhitelabelSettingsReply>();
    const row = await onlyEntrySince(t.db, mark, 'branding.update');
    expect(row).toMatchObject({
      actor_user_id: reseller.user.id,
      actor_role: 'Reseller',
      target_type: 'branding',
      target_id: reseller.user.id,
      target_label: reseller.user.email,
      subject_user_id: reseller.user.id,
      changes: {
        company_name: { before: null, after: 'Acme Audit' },
        company_logo: { before: null, after: companyLogo },
      },
    });

    // The same again changes nothing: no entry.
    mark = await lastAuditId(t.db);
    expect((await save(reseller.token, { companyName: 'Acme Audit' })).statusCode).toBe(200);
    await expectNoEntrySince(t.db, mark);
  });

  it('a refused save writes none', async () => {
    const user = await t.createUser(admin, { role: 'User' });
    const reseller = await t.createUser(admin, { role: 'Reseller' });
    const mark = await lastAuditId(t.db);
    expect((await save(user.token, { companyName: 'Mine' })).statusCode).toBe(403);
    const text: FilePart = { ...png, data: Buffer.from('not an image') };
    expect((await save(reseller.token, { companyName: 'Bad logo' }, text)).statusCode).toBe(400);
    await expectNoEntrySince(t.db, mark);
  });
});

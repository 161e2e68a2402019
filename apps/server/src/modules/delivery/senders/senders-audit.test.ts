import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDIT_TYPES, type Provider, type Sender, type SenderTemplate } from '@herald/contract';
import { createTestApp, type TestApp } from '../../../../test/harness.js';
import {
  lastAuditId,
  expectNoEntrySince,
  onlyEntrySince,
  adminUserId,
} from '../../audit/audit.test-fixtures.js';

/**
 * The audit entries of the Admin's delivery settings (docs/audit.md): providers (never their
 * credentials), senders, WhatsApp templates and credit type routing.
 */

const SECRETS = {
  accessToken: 'EAAauditSecretAccessQ7x9',
  appSecret: 'audit-app-secret-5678',
  verifyToken: 'audit-verify-K3m2',
};

const REPLACED = 'EAAauditReplacedW4v8';

let t: TestApp;
let admin: string;
let adminId: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  adminId = await adminUserId(t.db);
});
afterAll(() => t.close());

const call = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, token = admin) =>
  t.request({ method, url, token, ...(payload ? { payload } : {}) });

const byAdmin = () => ({ actor_user_id: adminId, actor_role: 'Admin', subject_user_id: null });

/** Fails if a secret's value, or its last four characters, is anywhere in the entry. */
function expectNoSecret(row: object) {
  const text = JSON.stringify(row);
  for (const value of [...Object.values(SECRETS), REPLACED]) {
    expect(text).not.toContain(value);
    expect(text).not.toContain(value.slice(-4));
  }
}

describe('providers', () => {
  it('create, update and delete each write their entry, never a credential', async () => {
    let mark = await lastAuditId(t.db);
    const created = await call('POST', '/api/delivery/providers', {
      kind: 'whatsapp_cloud',
      name: 'Audit WhatsApp',
      settings: { baseUrl: 'http://127.0.0.1:9', apiVersion: 'v21.0' },
      secrets: SECRETS,
    });
    expect(created.statusCode, created.body).toBe(201);
    const provider = created.json<Provider>();
    let row = await onlyEntrySince(t.db, mark, 'provider.create');
    expect(row).toMatchObject({
      ...byAdmin(),
      target_type: 'provider',
      target_id: provider.id,
      target_label: 'Audit WhatsApp',
    });
    expect(row.changes).toMatchObject({
      name: { before: null, after: 'Audit WhatsApp' },
      kind: { before: null, after: 'whatsapp_cloud' },
      'settings.apiVersion': { before: null, after: 'v21.0' },
      replaced: { before: null, after: ['accessToken', 'appSecret', 'verifyToken'] },
    });
    expectNoSecret(row);

    mark = await lastAuditId(t.db);
    const updated = await call('PUT', `/api/delivery/providers/${provider.id}`, {
      name: 'Audit WhatsApp 2',
      enabled: true,
      settings: { baseUrl: 'http://127.0.0.1:9', apiVersion: 'v22.0' },
      secrets: { accessToken: REPLACED },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    row = await onlyEntrySince(t.db, mark, 'provider.update');
    expect(row.target_label).toBe('Audit WhatsApp 2');
    expect(row.changes).toEqual({
      name: { before: 'Audit WhatsApp', after: 'Audit WhatsApp 2' },
      'settings.apiVersion': { before: 'v21.0', after: 'v22.0' },
      replaced: { before: null, after: ['accessToken'] },
    });
    expectNoSecret(row);

    mark = await lastAuditId(t.db);
    expect((await call('DELETE', `/api/delivery/providers/${provider.id}`)).statusCode).toBe(204);
    row = await onlyEntrySince(t.db, mark, 'provider.delete');
    expect(row).toMatchObject({ ...byAdmin(), target_id: provider.id });
    expect(row.changes).toMatchObject({ name: { before: 'Audit WhatsApp 2', after: null } });
    expectNoSecret(row);
  });

  it('a refused change writes none', async () => {
    const reseller = await t.createUser(admin, { role: 'Reseller' });
    const mark = await lastAuditId(t.db);
    const body = { kind: 'jasmin', name: 'Nope', settings: { baseUrl: 'http://127.0.0.1:9' } };
    expect((await call('POST', '/api/delivery/providers', body, reseller.token)).statusCode).toBe(
      403,
    );
    const simulator = await t.db
      .selectFrom('providers')
      .select('id')
      .where('builtin', '=', true)
      .executeTakeFirstOrThrow();
    expect((await call('DELETE', `/api/delivery/providers/${simulator.id}`)).statusCode).toBe(409);
    await expectNoEntrySince(t.db, mark);
  });
});

describe('senders, templates and routing', () => {
  it('each change writes its entry; a refused one writes none', async () => {
    const provider = await call('POST', '/api/delivery/providers', {
      kind: 'whatsapp_cloud',
      name: 'Audit WA senders',
      settings: { baseUrl: 'http://127.0.0.1:9', apiVersion: 'v21.0' },
      secrets: SECRETS,
    });
    const providerId = provider.json<Provider>().id;

    let mark = await lastAuditId(t.db);
    const created = await call('POST', '/api/delivery/senders', {
      providerId,
      name: 'Audit sender',
      address: '106540352242900',
      ratePerSecond: 10,
      dailyLimit: null,
    });
    expect(created.statusCode, created.body).toBe(201);
    const sender = created.json<Sender>();
    let row = await onlyEntrySince(t.db, mark, 'sender.create');
    expect(row).toMatchObject({ ...byAdmin(), target_type: 'sender', target_id: sender.id });
    expect(row.changes).toMatchObject({
      name: { before: null, after: 'Audit sender' },
      ratePerSecond: { before: null, after: 10 },
      provider: { before: null, after: 'Audit WA senders' },
    });

    mark = await lastAuditId(t.db);
    const limits = { ratePerSecond: 20, dailyLimit: 500 };
    expect((await call('PUT', `/api/delivery/senders/${sender.id}`, limits)).statusCode).toBe(200);
    row = await onlyEntrySince(t.db, mark, 'sender.update');
    expect(row.changes).toEqual({
      ratePerSecond: { before: 10, after: 20 },
      dailyLimit: { before: null, after: 500 },
    });

    mark = await lastAuditId(t.db);
    const added = await call('POST', `/api/delivery/senders/${sender.id}/templates`, {
      name: 'audit_note',
      language: 'en',
      body: 'Hi {{1}}',
    });
    expect(added.statusCode, added.body).toBe(201);
    const template = added.json<SenderTemplate>();
    row = await onlyEntrySince(t.db, mark, 'template.create');
    expect(row).toMatchObject({
      ...byAdmin(),
      target_type: 'template',
      target_id: template.id,
      target_label: 'audit_note (en)',
    });
    expect(row.changes).toMatchObject({ variables: { before: null, after: 1 } });

    const rich = CREDIT_TYPES.find((type) => type.startsWith('With DP'))!;
    mark = await lastAuditId(t.db);
    const routes = { routes: [{ creditType: rich, senderId: sender.id }] };
    expect((await call('PUT', '/api/delivery/routes', routes)).statusCode).toBe(200);
    row = await onlyEntrySince(t.db, mark, 'routing.update');
    expect(row).toMatchObject({ ...byAdmin(), target_type: 'routing', target_id: null });
    expect(row.changes).toEqual({ [rich]: { before: null, after: 'Audit sender' } });

    // Refused: an unknown template, an unknown sender in a route, the default sender.
    mark = await lastAuditId(t.db);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await call('DELETE', `/api/delivery/templates/${unknown}`)).statusCode).toBe(404);
    const badRoute = { routes: [{ creditType: rich, senderId: unknown }] };
    expect((await call('PUT', '/api/delivery/routes', badRoute)).statusCode).toBe(404);
    const simulator = await t.db
      .selectFrom('senders')
      .select('id')
      .where('is_default', '=', true)
      .executeTakeFirstOrThrow();
    expect((await call('DELETE', `/api/delivery/senders/${simulator.id}`)).statusCode).toBe(409);
    // Routes sent as they stand change nothing.
    expect((await call('PUT', '/api/delivery/routes', routes)).statusCode).toBe(200);
    await expectNoEntrySince(t.db, mark);

    mark = await lastAuditId(t.db);
    expect((await call('DELETE', `/api/delivery/templates/${template.id}`)).statusCode).toBe(204);
    row = await onlyEntrySince(t.db, mark, 'template.delete');
    expect(row.changes).toMatchObject({ name: { before: 'audit_note', after: null } });

    const back = { routes: [{ creditType: rich, senderId: null }] };
    expect((await call('PUT', '/api/delivery/routes', back)).statusCode).toBe(200);
    mark = await lastAuditId(t.db);
    expect((await call('DELETE', `/api/delivery/senders/${sender.id}`)).statusCode).toBe(204);
    row = await onlyEntrySince(t.db, mark, 'sender.delete');
    expect(row).toMatchObject({ target_id: sender.id, target_label: 'Audit sender' });
  });
});

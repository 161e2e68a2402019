import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { randomBytes } from 'node:crypto';
import { SecretBoxError } from '../lib/secret-box.js';
import { ensureSharedSecrets } from './shared-secrets.js';

/**
 * Two instances on one database, each with its own data folder and no secret set, agree on the
 * JWT and webhook keys through the owner-only schema (docs/operations.md, Secrets).
 */
let t: TestApp;
const dirs: string[] = [];
const newDir = async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-secrets-'));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  t = await createTestApp({ JWT_SECRET: '', DELIVERY_WEBHOOK_SECRET: '' });
});
afterAll(async () => {
  await t?.close();
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

describe('secrets shared through the database', () => {
  it('a token from one instance is good on another with its own data folder', async () => {
    const token = await t.adminToken();
    const other = await t.secondInstance({ dataDir: await newDir() });
    const res = await other.inject({
      url: '/api/session',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    const first = await t.secondInstance();
    expect(other.ctx.delivery.webhookSecret).toBe(first.ctx.delivery.webhookSecret);
    expect(other.ctx.delivery.webhookSecret).toMatch(/^[0-9a-f]{64}$/);
  });

  it('agrees on the credentials key, so a secret sealed by one instance opens on another', async () => {
    const first = await t.secondInstance({ dataDir: await newDir() });
    const other = await t.secondInstance({ dataDir: await newDir() });
    const sealed = first.ctx.secretBox.seal('provider-token', 'provider:p1:accessToken');
    expect(other.ctx.secretBox.open(sealed, 'provider:p1:accessToken')).toBe('provider-token');
    const own = await t.secondInstance({ secretsKey: randomBytes(32) });
    expect(() => own.ctx.secretBox.open(sealed, 'provider:p1:accessToken')).toThrow(SecretBoxError);
  });

  it('a setting still wins over the stored secret', async () => {
    const token = await t.adminToken();
    const own = await t.secondInstance({
      dataDir: await newDir(),
      jwtSecret: 'another-secret-another-secret-another-secret',
    });
    const res = await own.inject({
      url: '/api/session',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(401);
  });

  it('is kept where the app role cannot read it', async () => {
    const first = await t.secondInstance();
    const app = new pg.Client({ connectionString: first.ctx.databaseUrl });
    await app.connect();
    try {
      await expect(app.query('SELECT value FROM herald_private.secrets')).rejects.toThrow(
        /permission denied/,
      );
    } finally {
      await app.end();
    }
  });

  it('adopts the key an older start kept in DATA_DIR, so its sessions live on', async () => {
    const owner = new pg.Pool({ connectionString: t.databaseUrl, max: 1 });
    try {
      const dataDir = await newDir();
      await fs.writeFile(path.join(dataDir, 'jwt.secret'), 'legacy-key-legacy-key-legacy-key-1\n');
      await owner.query(`DELETE FROM herald_private.secrets WHERE name = 'jwt'`);
      const adopted = await ensureSharedSecrets(owner, { dataDir });
      expect(adopted.jwt).toBe('legacy-key-legacy-key-legacy-key-1');
      // Stored once: a later start without the file reads the same key.
      expect((await ensureSharedSecrets(owner, { dataDir: await newDir() })).jwt).toBe(adopted.jwt);
    } finally {
      await owner.end();
    }
  });
});

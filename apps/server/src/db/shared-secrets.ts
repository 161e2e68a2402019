import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { SECRET_KEY_BYTES } from '../lib/secret-box.js';
import { PRIVATE_SCHEMA } from './app-role.js';

/**
 * Secrets every instance on one database must agree on (docs/operations.md, Secrets): the
 * session tokens' signing key, the status webhooks' HMAC key and the key provider credentials
 * are encrypted under (lib/secret-box.ts). A setting still wins; unset,
 * each is generated once and kept in the owner-only schema, which the app role cannot read and
 * Herald's backups leave out, so a second instance on the same database signs and checks with
 * the same keys without anyone copying them. The owner reads them at start, after the
 * migrations.
 */
export interface SharedSecrets {
  jwt: string;
  deliveryWebhook: string;
  /** 32 bytes: SECRETS_KEY, or the stored `credentials-key`. */
  credentials: Buffer;
}

/** Before secrets lived in the database, the JWT key was a file in DATA_DIR; its sessions live on. */
const LEGACY_JWT_FILE = 'jwt.secret';

async function legacyJwtSecret(dataDir: string): Promise<string | undefined> {
  const text = await fs.readFile(path.join(dataDir, LEGACY_JWT_FILE), 'utf8').catch(() => '');
  return text.trim() || undefined;
}

/**
 * The stored value of `name`, storing `proposed` first when there is none. Instances starting
 * together may both propose: the first insert wins and every one reads it back.
 */
async function agreed(client: pg.PoolClient, name: string, proposed: string): Promise<string> {
  await client.query(
    `INSERT INTO ${PRIVATE_SCHEMA}.secrets (name, value) VALUES ($1, $2)
     ON CONFLICT (name) DO NOTHING`,
    [name, proposed],
  );
  const { rows } = await client.query<{ value: string }>(
    `SELECT value FROM ${PRIVATE_SCHEMA}.secrets WHERE name = $1`,
    [name],
  );
  return rows[0]!.value;
}

export async function ensureSharedSecrets(
  ownerPool: pg.Pool,
  opts: { jwt?: string; deliveryWebhook?: string; credentials?: Buffer; dataDir: string },
): Promise<SharedSecrets> {
  const client = await ownerPool.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${PRIVATE_SCHEMA};
      REVOKE ALL ON SCHEMA ${PRIVATE_SCHEMA} FROM PUBLIC;
      CREATE TABLE IF NOT EXISTS ${PRIVATE_SCHEMA}.secrets (
        name text PRIMARY KEY, value text NOT NULL)`);
    const jwt =
      opts.jwt ??
      (await agreed(
        client,
        'jwt',
        (await legacyJwtSecret(opts.dataDir)) ?? randomBytes(48).toString('base64url'),
      ));
    const deliveryWebhook =
      opts.deliveryWebhook ??
      (await agreed(client, 'delivery-webhook', randomBytes(32).toString('hex')));
    const credentials =
      opts.credentials ??
      Buffer.from(
        await agreed(
          client,
          'credentials-key',
          randomBytes(SECRET_KEY_BYTES).toString('base64url'),
        ),
        'base64url',
      );
    return { jwt, deliveryWebhook, credentials };
  } finally {
    client.release();
  }
}

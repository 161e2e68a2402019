import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      smtpUrl: undefined,
      jwtSecret: undefined,
      passwordHashCost: 17,
    });
  });

  it('reads TRUST_PROXY as no hop, a hop count or a list of proxy addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1,loopback' }).trustProxy).toEqual(
      ['10.0.0.1', '192.168.0.0/16', '::1', 'loopback'],
    );
    for (const bad of ['yes', '10.0.0.1/33', 'proxy.example.com', '10.0.0.1,']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it('reads every setting', () => {
    const c = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/tmp/x',
      DATABASE_URL: 'postgres://u@h/db',
      ADMIN_EMAIL: 'Boss@Example.com',
      ADMIN_PASSWORD: 'long-enough',
      SMTP_URL: 'smtp://u:p@mail:587',
      MAIL_FROM: 'Ops <ops@example.com>',
      PUBLIC_URL: 'https://herald.example.com/',
      JWT_SECRET: 'x'.repeat(32),
    });
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/tmp/x',
      databaseUrl: 'postgres://u@h/db',
      adminEmail: 'boss@example.com',
      smtpUrl: 'smtp://u:p@mail:587',
      mailFrom: 'Ops <ops@example.com>',
      publicUrl: 'https://herald.example.com',
    });
  });

  it('reads APP_DATABASE_URL, the role that serves requests, only beside DATABASE_URL', () => {
    expect(loadConfig({}).appDatabaseUrl).toBeUndefined();
    const c = loadConfig({
      DATABASE_URL: 'postgres://owner@h/db',
      APP_DATABASE_URL: 'postgres://app:pw@h/db',
    });
    expect(c).toMatchObject({
      databaseUrl: 'postgres://owner@h/db',
      appDatabaseUrl: 'postgres://app:pw@h/db',
    });
    expect(() => loadConfig({ APP_DATABASE_URL: 'postgres://app@h/db' })).toThrow(
      /APP_DATABASE_URL: needs DATABASE_URL/,
    );
    expect(() =>
      loadConfig({ DATABASE_URL: 'postgres://o@h/db', APP_DATABASE_URL: 'mysql://x' }),
    ).toThrow(/APP_DATABASE_URL/);
  });

  it('takes WEB_DIST from the schema: a path, empty for the API only, unset for the default', () => {
    expect(loadConfig({ WEB_DIST: '/srv/web' }, { webDist: '/default' }).webDist).toBe('/srv/web');
    expect(loadConfig({ WEB_DIST: 'web/dist' }).webDist).toBe(path.resolve('web/dist'));
    expect(loadConfig({ WEB_DIST: '' }, { webDist: '/default' }).webDist).toBeUndefined();
    expect(loadConfig({}, { webDist: '/default' }).webDist).toBe('/default');
    expect(loadConfig({}).webDist).toBeUndefined();
  });

  it('takes PUBLIC_URL for the links in mail, else the local address on PORT', () => {
    expect(loadConfig({}).publicUrl).toBe('http://localhost:3000');
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(() => loadConfig({ PUBLIC_URL: 'ftp://x.example' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ PUBLIC_URL: 'herald.example.com' })).toThrow(/PUBLIC_URL/);
  });

  it('refuses a password hash cost below 15 with a clear message', () => {
    expect(loadConfig({ PASSWORD_HASH_COST: '15' }).passwordHashCost).toBe(15);
    expect(() => loadConfig({ PASSWORD_HASH_COST: '14' })).toThrow(
      /PASSWORD_HASH_COST: must be at least 15/,
    );
  });

  it('takes STORAGE_URL: the local folder when unset, an S3 bucket, or a clear refusal', () => {
    expect(loadConfig({}).storage).toEqual({ driver: 'local' });
    expect(loadConfig({ STORAGE_URL: '' }).storage).toEqual({ driver: 'local' });
    expect(loadConfig({ STORAGE_URL: 's3://media/herald?region=eu-west-1' }).storage).toMatchObject(
      { driver: 's3', bucket: 'media', prefix: 'herald/', region: 'eu-west-1' },
    );
    expect(() => loadConfig({ STORAGE_URL: 's3://id:secret@media' })).toThrow(
      /STORAGE_URL: must not hold credentials/,
    );
  });

  it('takes SECRETS_KEY as 32 bytes in hex or base64, unset by default, and refuses others', () => {
    const hex = 'ab'.repeat(32);
    expect(loadConfig({ SECRETS_KEY: hex }).secretsKey).toEqual(Buffer.from(hex, 'hex'));
    const base64 = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig({ SECRETS_KEY: base64 }).secretsKey).toEqual(Buffer.alloc(32, 7));
    expect(loadConfig({}).secretsKey).toBeUndefined();
    expect(loadConfig({ SECRETS_KEY: '' }).secretsKey).toBeUndefined();
    expect(() => loadConfig({ SECRETS_KEY: 'short' })).toThrow(/SECRETS_KEY.*64 hex digits/);
  });

  it('stops with the list of bad variables', () => {
    expect(() =>
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', JWT_SECRET: 'short' }),
    ).toThrow(/PORT[\s\S]*DATABASE_URL[\s\S]*JWT_SECRET/);
  });
});

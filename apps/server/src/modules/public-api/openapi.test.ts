import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { makeKey } from '../api-keys/api-keys.test-fixtures.js';
import { NORMAL } from '../campaigns/campaign-actions.test-fixtures.js';
import { fund } from '../campaigns/campaigns.test-fixtures.js';
import { balanceOf } from '../credits/credits.test-fixtures.js';

/**
 * The OpenAPI document of /api/v1 (docs/api.md, The OpenAPI document) is valid OpenAPI 3.1,
 * covers the v1 routes only, and is true: a client generated from it at test time
 * (openapi-typescript, type-checked by tsc, with openapi-fetch) creates a campaign with a test
 * key and reads its recipients and the balance from the running server. The reference page
 * renders it without any script, under its own strict policy.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

let t: TestApp;
let baseUrl: string;
let document: Record<string, unknown>;
let dir: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  baseUrl = `http://127.0.0.1:${address.port}`;
  const res = await fetch(`${baseUrl}/api/v1/openapi.json`);
  expect(res.status).toBe(200);
  document = (await res.json()) as Record<string, unknown>;
  // Inside node_modules, so the generated client resolves openapi-fetch as the repo does.
  const cache = path.join(ROOT, 'node_modules/.cache');
  await fs.mkdir(cache, { recursive: true });
  dir = await fs.mkdtemp(path.join(cache, 'herald-openapi-'));
});
afterAll(async () => {
  await t?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

const CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

export async function run(baseUrl: string, key: string) {
  const client = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${key}\` } });
  const created = await client.POST('/api/v1/campaigns', {
    body: {
      creditType: '${NORMAL}',
      message: 'From the generated client',
      recipients: ['9876500001', '9876500002'],
    },
    headers: { 'idempotency-key': 'generated-client-1' },
  });
  if (!created.data) throw new Error(\`create failed: \${JSON.stringify(created.error)}\`);
  const id: string = created.data.campaign._id;
  const test: boolean = created.data.campaign.test;
  const recipients = await client.GET('/api/v1/campaigns/{id}/recipients', {
    params: { path: { id }, query: { limit: 10 } },
  });
  if (!recipients.data) throw new Error('recipients failed');
  const phones: string[] = recipients.data.items.map((r) => r.phone);
  const balances = await client.GET('/api/v1/balances');
  if (!balances.data) throw new Error('balances failed');
  const held: { creditType: string; balance: number }[] = balances.data.items;
  const missing = await client.GET('/api/v1/campaigns/{id}', {
    params: { path: { id: '00000000-0000-4000-8000-000000000000' } },
  });
  const code: string | undefined = missing.error?.code;
  return { id, test, phones, held, code };
}
`;

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 and covers the v1 routes only', async () => {
    const result = await new Validator().validate(document);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
    const paths = document.paths as Record<string, Record<string, unknown>>;
    const operations = Object.entries(paths).flatMap(([p, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(operations.sort()).toEqual(
      [
        'GET /api/v1/balances',
        'GET /api/v1/campaigns',
        'GET /api/v1/campaigns/{id}',
        'GET /api/v1/campaigns/{id}/recipients',
        'GET /api/v1/ledger',
        'GET /api/v1/suppressions',
        'POST /api/v1/campaigns',
        'POST /api/v1/campaigns/{id}/cancel',
        'POST /api/v1/suppressions',
        'DELETE /api/v1/suppressions/{number}',
      ].sort(),
    );
    const create = paths['/api/v1/campaigns']!.post as {
      requestBody: { content: Record<string, unknown> };
    };
    expect(Object.keys(create.requestBody.content).sort()).toEqual([
      'application/json',
      'multipart/form-data',
    ]);
  });

  it('generates a client that type-checks and works against the server', async () => {
    const user = await t.createUser(await t.adminToken(), { role: 'User' });
    await fund(t, await t.adminToken(), user.user.email, NORMAL, 5);
    const key = await makeKey(t, user.token, 'Generated', 'test');

    const schema = astToString(await openapiTS(JSON.stringify(document)));
    await fs.writeFile(path.join(dir, 'schema.ts'), schema);
    await fs.writeFile(path.join(dir, 'client.ts'), CLIENT);
    await fs.writeFile(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          skipLibCheck: true,
          outDir: 'out',
          types: [],
        },
        files: ['client.ts', 'schema.ts'],
      }),
    );
    await fs.writeFile(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    const tsc = await promisify(execFile)(process.execPath, [TSC, '-p', dir]).catch(
      (err: { stdout?: string }) => ({ stdout: err.stdout ?? String(err) }),
    );
    expect(tsc.stdout).toBe('');

    const client = (await import(pathToFileURL(path.join(dir, 'out/client.js')).href)) as {
      run(baseUrl: string, key: string): Promise<Record<string, unknown>>;
    };
    const result = await client.run(baseUrl, key.secret);
    expect(result).toMatchObject({
      test: true,
      phones: ['9876500001', '9876500002'],
      held: [{ creditType: NORMAL, balance: 5 }],
      code: 'not_found',
    });
    // A test key charged nothing.
    expect(await balanceOf(t.db, user.user.id)).toBe(5);
  }, 60_000);
});

describe('the reference page', () => {
  it('renders the document with no script, under a policy that allows none', async () => {
    const res = await fetch(`${baseUrl}/api/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    const html = await res.text();
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('/api/v1/campaigns/{id}/recipients');
    expect(html).toContain('href="/api/docs/docs.css"');
    const css = await fetch(`${baseUrl}/api/docs/docs.css`);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });
});

import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as contract from '@herald/contract';
import { createTestApp, type TestApp } from '../test/harness.js';
import { buildHierarchy, type Hierarchy } from './modules/users/test-fixtures.js';
import { brokenMultipart } from './fuzz.test-fixtures.js';

/**
 * Every route, as every role and anonymously, fed odd path parameters, query values and bodies
 * (empty, huge, NUL, unicode, out-of-range numbers, wrong types, malformed JSON and multipart):
 * none may answer 5xx. Routes are read off the built app, so a new route is fuzzed at once;
 * field names come from the contract's schemas. A fixed seed keeps runs repeatable; on a
 * failure fast-check prints the seed and the shrunk request.
 */

const SEED = 20261124;
const RUNS_PER_ROUTE_AND_ROLE = 30;

/** A seed per route and role, so each gets its own inputs and a new route moves no other's. */
function seedOf(label: string): number {
  let hash = SEED;
  for (const ch of label) hash = (Math.imul(hash, 31) + (ch.codePointAt(0) ?? 0)) | 0;
  return hash;
}

interface Route {
  method: string;
  url: string;
}

/**
 * The routes of `printRoutes({ commonPrefix: false })`: a tree whose lines are
 * `<indent>/<segment> (METHODS)`, each segment continuing its parent's path.
 */
export function routesOf(printed: string): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of printed.split('\n')) {
    const m = /^([│├└─\s]*?)(\/\S*)(?: \(([A-Z, ]+)\))?$/u.exec(line.trimEnd());
    if (!m) continue;
    const depth = [...(m[1] ?? '')].length / 4;
    stack.length = depth;
    const url = (stack[depth - 1] ?? '') + (m[2] ?? '');
    stack.push(url);
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, url });
    }
  }
  return routes;
}

/** Every field name the contract's object schemas know: the bodies' and queries' keys. */
function contractKeys(): string[] {
  const keys = new Set<string>();
  for (const value of Object.values(contract)) {
    let schema: unknown = value;
    // Refined objects (z.object().refine) keep their shape on the inner object.
    while (schema instanceof z.ZodPipe) schema = schema.in;
    if (schema instanceof z.ZodObject) for (const k of Object.keys(schema.shape)) keys.add(k);
  }
  return [...keys].sort();
}

const oddString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\0',
    'a\0b',
    '%00',
    '-1',
    '0',
    '1e309',
    'NaN',
    'null',
    'true',
    '[]',
    '{}',
    '9223372036854775807',
    '9223372036854775808',
    '-9223372036854775809',
    '99999999999999999999999999',
    '2024-02-31',
    '9999-12-31',
    '0000-00-00',
    'admin@test.local',
    'x@y',
    '😀',
    '\u202e\ud800',
    'é'.repeat(3000),
    'x'.repeat(70_000),
    randomUUID(),
    '00000000-0000-0000-0000-000000000000',
    '../../etc/passwd',
    'Normal Message - domestic',
    'Active',
    'Blocked',
  ),
  fc.string({ maxLength: 40, unit: 'grapheme' }),
  fc.string({ maxLength: 20, unit: 'binary' }),
  fc.bigInt().map(String),
);
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  oddString,
  fc.constantFrom(null, true, false, 0, -1, 1e308, -1e308, 2 ** 53, 9223372036854775808, 0.5),
  fc.integer().map((n) => n),
  fc.array(oddString, { maxLength: 3 }),
  fc.dictionary(oddString, oddString, { maxKeys: 2 }),
);

type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; text: string; type: string }
  | { kind: 'multipart'; fields: [string, string][]; file: boolean };

function multipart(fields: [string, string][], file: boolean): { body: Buffer; type: string } {
  const boundary = 'fuzzboundary7e3a';
  const parts = fields.map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  if (file) {
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="${fields[0]?.[0] ?? 'file'}"; ` +
        `filename="a\0.csv"\r\nContent-Type: text/plain\r\n\r\n1234567,sent\r\n`,
    );
  }
  return {
    body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`, 'utf8'),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

/** Every UTF-8 byte as %XX (a lone surrogate becomes U+FFFD, as a browser would send it). */
const percentEncode = (value: string) =>
  [...Buffer.from(value, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

const malformed = contract.server.multipartMalformed;
let t: TestApp;
let h: Hierarchy;
let routes: Route[];
let roles: [string, string | undefined][];
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  roles = [
    ['anonymous', undefined],
    ['Admin', h.admin],
    ['Reseller', h.r1.token],
    ['Sub-Reseller', h.s1.token],
    ['User', h.u1.token],
  ];
  routes = routesOf(t.app.printRoutes({ commonPrefix: false })).filter((r) =>
    r.url.startsWith('/api/'),
  );
});
afterAll(() => t.close());

describe('fuzz', () => {
  it('finds the API routes off the app', () => {
    expect(routes.length).toBeGreaterThan(20);
    expect(routes).toContainEqual({ method: 'GET', url: '/api/campaigns/user/:email' });
  });

  it('answers the inputs that once reached PostgreSQL with 400, not 500', async () => {
    for (const url of [
      '/api/credits/history?cursor=9223372036854775808',
      '/api/credits?cursor=9223372036854775808',
      '/api/campaigns/user/%00',
      '/api/credits/user/%00',
    ]) {
      const res = await t.request({ method: 'GET', url, token: h.admin });
      expect(res.statusCode, url).toBe(400);
    }
  });

  it('never answers 5xx to odd input on any route, as any role', async () => {
    const keys = contractKeys();
    const known = [h.u1.user._id, h.u1.user.email, h.r1.user._id, h.s1.user.email];
    const arbitrary = fc.record({
      // Real ids and emails too, so the inputs also reach past the lookups.
      params: fc.array(fc.oneof(oddString, fc.constantFrom(...known)), {
        minLength: 4,
        maxLength: 4,
      }),
      query: fc.dictionary(fc.constantFrom(...keys), oddString, { maxKeys: 4 }),
      body: fc.oneof(
        fc.constant<Body>({ kind: 'none' }),
        fc
          .oneof(fc.dictionary(fc.constantFrom(...keys), oddValue, { maxKeys: 6 }), oddValue)
          .map((value): Body => ({ kind: 'json', value })),
        fc
          .constantFrom('{', '{"a":', '[1,,]', '\0', 'null', '"x"', '{"__proto__":{"x":1}}')
          .map((text): Body => ({ kind: 'raw', text, type: 'application/json' })),
        fc
          .tuple(
            fc.array(fc.tuple(fc.constantFrom(...keys), oddString), { maxLength: 5 }),
            fc.boolean(),
          )
          .map(([fields, file]): Body => ({ kind: 'multipart', fields, file })),
      ),
    });
    for (const route of routes) {
      for (const [role, token] of roles) {
        const label = `${route.method} ${route.url} as ${role}`;
        await fc.assert(
          fc.asyncProperty(arbitrary, async ({ params, query, body }) => {
            let i = 0;
            const path = route.url.replace(/:[A-Za-z_]+|\*/g, () =>
              percentEncode(params[i++ % params.length] ?? ''),
            );
            const qs = new URLSearchParams(query).toString();
            const url = qs ? `${path}?${qs}` : path;
            let payload: string | Buffer | undefined;
            const headers: Record<string, string> = {};
            if (route.method !== 'GET' && body.kind === 'json') {
              payload = JSON.stringify(body.value) ?? 'null';
              headers['content-type'] = 'application/json';
            } else if (route.method !== 'GET' && body.kind === 'raw') {
              payload = body.text;
              headers['content-type'] = body.type;
            } else if (route.method !== 'GET' && body.kind === 'multipart') {
              const m = multipart(body.fields, body.file);
              payload = m.body;
              headers['content-type'] = m.type;
            }
            const method = route.method as 'GET';
            const res = await t.request({ method, url, payload, headers, token });
            if (res.statusCode >= 500) {
              throw new Error(`${label}: ${url} → ${res.statusCode} ${res.body.slice(0, 300)}`);
            }
          }),
          { seed: seedOf(label), numRuns: RUNS_PER_ROUTE_AND_ROLE, endOnFailure: true },
        );
      }
    }
  }, 120_000);

  it('answers cut-off and malformed multipart bodies with 400, never 5xx, on every route', async () => {
    // The fuzz above used up the per-user upload limits, which are counted before a body is read.
    await t.ownerDb.deleteFrom('rate_limits').execute();
    const refused = new Set<string>();
    for (const route of routes.filter((r) => r.method !== 'GET')) {
      const url = route.url.replace(/:[A-Za-z_]+|\*/g, h.u1.user._id);
      for (const [role, token] of roles) {
        for (const { label, type, body, broken } of brokenMultipart) {
          const res = await t.request({
            method: route.method as 'POST',
            url,
            payload: body,
            headers: { 'content-type': type },
            token,
          });
          const where = `${route.method} ${url} as ${role}, ${label}: ${res.body.slice(0, 200)}`;
          expect(res.statusCode, where).toBeLessThan(500);
          const { message } = res.json<{ message?: unknown }>();
          expect(typeof message, where).toBe('string');
          // A route that read the body (a 400, not a 401/403/404/415 before it) says why.
          if (broken && res.statusCode === 400) expect(message, where).toBe(malformed);
          if (message === malformed) refused.add(`${route.method} ${route.url}`);
        }
      }
    }
    // The upload routes each read a broken body and refused it as such (a new one joins the list).
    expect([...refused].sort()).toEqual([
      'POST /api/announcements',
      'POST /api/campaigns',
      'POST /api/suppressions/import',
      'POST /api/tickets',
      'POST /api/v1/campaigns',
      'POST /api/whitelabel/settings',
      'PUT /api/users/update/:id',
    ]);
  }, 120_000);
});

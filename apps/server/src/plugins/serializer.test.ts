import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonSerializer, serializerCompiler } from './serializer.js';

const app = Fastify().withTypeProvider<ZodTypeProvider>();
app.setValidatorCompiler(validatorCompiler);
app.setSerializerCompiler(serializerCompiler);

const Row = z.object({
  id: z.string(),
  count: z.number(),
  note: z.string().nullable(),
  tags: z.array(z.object({ name: z.string() })),
  kind: z.enum(['a', 'b']),
});

beforeAll(async () => {
  app.get('/row', { schema: { response: { 200: Row } } }, () => ({
    id: 'r1',
    count: 3,
    note: null,
    tags: [{ name: 't', hash: 'nested-secret' }],
    kind: 'a' as const,
    passwordHash: 'top-secret',
  }));
  app.get('/codec', { schema: { response: { 200: z.object({ at: z.date() }) } } }, () => ({
    at: new Date(0),
  }));
  await app.ready();
});
afterAll(() => app.close());

describe('serializerCompiler', () => {
  it('writes exactly the declared properties, at every depth', async () => {
    const res = await app.inject({ url: '/row' });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('secret');
    expect(res.json()).toEqual({
      id: 'r1',
      count: 3,
      note: null,
      tags: [{ name: 't' }],
      kind: 'a',
    });
  });

  it('keeps zod for schemas JSON Schema cannot express', async () => {
    const res = await app.inject({ url: '/codec' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ at: '1970-01-01T00:00:00.000Z' });
  });
});

describe('jsonSerializer', () => {
  it('writes a part of a reply as its route would: the declared properties only', () => {
    const write = jsonSerializer(z.array(Row.pick({ id: true, note: true })));
    const json = write([{ id: 'r1', note: 'say "hi"', passwordHash: 'top-secret' }]);
    expect(json).not.toContain('secret');
    expect(JSON.parse(json)).toEqual([{ id: 'r1', note: 'say "hi"' }]);
  });

  it('refuses a schema without a JSON Schema form', () => {
    expect(() => jsonSerializer(z.object({ at: z.date() }))).toThrow(/no JSON Schema form/);
  });
});

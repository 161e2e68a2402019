import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type ZodRoute = Parameters<typeof zodSerializerCompiler>[0];

/**
 * Response serialization (docs/performance.md, request CPU): each route's zod response schema
 * becomes a JSON Schema once, at start, and fast-json-stringify compiles it into a function that
 * writes only the declared properties (objects are closed: `additionalProperties: false`), so a
 * row with extra columns (a password hash, say) can never leak. It costs a fraction of parsing
 * every reply with zod and then calling JSON.stringify. A schema that JSON Schema cannot express
 * (a transform, a codec) keeps the zod serializer.
 */
export function serializerCompiler(route: ZodRoute): (data: unknown) => string {
  const { schema } = route;
  return (schema instanceof z.ZodType && compileFast(schema)) || zodSerializerCompiler(route);
}

/**
 * A part of a reply serialized ahead of it (a cached one), as a route's response schema would
 * write it: only the declared properties. The schema must have a JSON Schema form.
 */
export function jsonSerializer(schema: z.ZodType): (data: unknown) => string {
  const fast = compileFast(schema);
  if (!fast) throw new Error('jsonSerializer: the schema has no JSON Schema form');
  return fast;
}

function compileFast(schema: z.ZodType): ((data: unknown) => string) | undefined {
  try {
    const json = z.toJSONSchema(schema, { io: 'output', target: 'draft-7' });
    return fastJson(json as Parameters<typeof fastJson>[0]);
  } catch {
    // Unrepresentable in JSON Schema (a transform, a codec).
    return undefined;
  }
}

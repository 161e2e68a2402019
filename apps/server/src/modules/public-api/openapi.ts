import fastifySwagger, { type SwaggerTransform } from '@fastify/swagger';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { PUBLIC_API_PREFIX, PublicCreateCampaignFormSchema } from '@herald/contract';

/**
 * The OpenAPI 3.1 document of /api/v1 (docs/api.md, The OpenAPI document), generated from the
 * routes' own zod schemas by @fastify/swagger and fastify-type-provider-zod's transforms, so it
 * cannot drift from what the routes check and answer. Registered in the /api/v1 scope only, it
 * sees no other route.
 */

export const OPENAPI_INFO = {
  title: 'Herald API',
  version: '1',
  description:
    'The versioned public API of Herald. Authenticate with an API key as `Authorization: Bearer ' +
    'hk_live_…` (or `hk_test_…`: a test key’s campaigns charge nothing and are sent to the ' +
    'simulator only). Lists are keyset pages `{ items, nextCursor }`; errors are ' +
    '`{ message, code }`; every POST accepts an `Idempotency-Key` header.',
};

/** Request bodies documented beside the validated one: read as they stream, not by a schema. */
const EXTRA_BODIES: Record<string, Record<string, z.ZodType>> = {
  [`POST ${PUBLIC_API_PREFIX}/campaigns`]: {
    'multipart/form-data': PublicCreateCampaignFormSchema,
  },
};

type BodyContent = Record<string, { schema: z.ZodType }>;
const contentOf = (body: unknown): BodyContent | undefined =>
  typeof body === 'object' && body !== null && 'content' in body
    ? (body.content as BodyContent)
    : undefined;

/**
 * jsonSchemaTransform, and a body given per content type (`{ content: { type: { schema } } }`,
 * which Fastify validates per type but the zod transform takes as a single schema): each type's
 * schema goes through the same transform, with the documented-only bodies beside them.
 */
const transform: SwaggerTransform<FastifySchema & { hide?: boolean }> = (doc) => {
  const content = contentOf(doc.schema?.body);
  if (!content) return jsonSchemaTransform(doc);
  const out = jsonSchemaTransform({ ...doc, schema: { ...doc.schema, body: undefined } });
  const extra = EXTRA_BODIES[`${doc.route.method} ${doc.url}`] ?? {};
  const documented: Record<string, { schema: unknown }> = {};
  for (const [type, schema] of [
    ...Object.entries(content).map(([t, c]) => [t, c.schema] as const),
    ...Object.entries(extra),
  ]) {
    const one = jsonSchemaTransform({ ...doc, schema: { body: schema } });
    documented[type] = { schema: (one.schema as { body?: unknown }).body };
  }
  return { ...out, schema: { ...out.schema, body: { content: documented } } };
};

/** Registers the document's generator in the v1 scope; call before its routes. */
export async function registerOpenApi(v1: FastifyInstance): Promise<void> {
  await v1.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: OPENAPI_INFO,
      components: {
        securitySchemes: {
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key made on the API & Webhooks screen: hk_live_… or hk_test_….',
          },
        },
      },
      security: [{ apiKey: [] }],
    },
    transform,
    transformObject: jsonSchemaTransformObject,
  });
}

import { z } from 'zod';
import { createdAtIdCursor, text } from './common.js';
import { server as msg } from '../server-messages.js';
import { API_KEY_NAME_MAX, API_KEYS_PAGE_DEFAULT, API_KEYS_PAGE_MAX } from '../limits.js';

/**
 * API keys (docs/api.md): a signed-in user's keys for the public API. A key acts as its user; a
 * test key behaves as a live one for now. The secret is answered once, at creation; the server
 * keeps its hash and its last four characters only.
 */

export const API_KEY_KINDS = ['live', 'test'] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

/** Every key starts so; the kind follows, then the random part (API_KEY_PATTERN). */
export const API_KEY_PREFIX = 'hk_';
/** 43 base62 characters carry 256 bits of randomness. */
export const API_KEY_RANDOM_LENGTH = 43;
export const API_KEY_PATTERN = new RegExp(
  `^${API_KEY_PREFIX}(live|test)_[0-9A-Za-z]{${API_KEY_RANDOM_LENGTH}}$`,
);

export const ApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(API_KEY_KINDS),
  /** The secret's last four characters, so its owner can tell keys apart. */
  last4: z.string(),
  createdAt: z.string(),
  /** Null until first used; written at most once a minute (API_KEY_LAST_USED_STEP_SECONDS). */
  lastUsedAt: z.string().nullable(),
  owner: z.object({ id: z.string(), name: z.string(), email: z.string() }),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

const pageLimitMessage = msg.pageLimit(API_KEYS_PAGE_MAX);
const blankToUndefined = (v: string | undefined) => (v ? v : undefined);

/**
 * GET /api/api-keys: newest first, `limit` at a time, after `cursor` (the previous page's
 * `nextCursor`). A non-Admin lists its own keys; the Admin every user's.
 */
export const ApiKeysQuerySchema = z.object({
  cursor: z.string().optional().transform(blankToUndefined).pipe(createdAtIdCursor().optional()),
  limit: z.coerce
    .number({ error: pageLimitMessage })
    .int(pageLimitMessage)
    .min(1, pageLimitMessage)
    .max(API_KEYS_PAGE_MAX, pageLimitMessage)
    .default(API_KEYS_PAGE_DEFAULT),
});
export type ApiKeysQuery = z.input<typeof ApiKeysQuerySchema>;
export type ApiKeysFilters = z.output<typeof ApiKeysQuerySchema>;

export const ApiKeyPageSchema = z.object({
  keys: z.array(ApiKeySchema),
  /** Pass as `cursor` for the next page; null when none are left. */
  nextCursor: z.string().nullable(),
});
export type ApiKeyPage = z.infer<typeof ApiKeyPageSchema>;

/** POST /api/api-keys: a new key of the caller's own. */
export const CreateApiKeyBodySchema = z.object({
  name: text({ error: msg.apiKeyNameRequired })
    .trim()
    .min(1, msg.apiKeyNameRequired)
    .max(API_KEY_NAME_MAX, msg.apiKeyNameTooLong(API_KEY_NAME_MAX)),
  kind: z.enum(API_KEY_KINDS, { error: msg.apiKeyKindInvalid }),
});
export type CreateApiKeyBody = z.input<typeof CreateApiKeyBodySchema>;

export const CreateApiKeyReplySchema = z.object({
  message: z.string(),
  key: ApiKeySchema,
  /** The whole key, `hk_<kind>_<random>`: answered here once and never again. */
  secret: z.string(),
});
export type CreateApiKeyReply = z.infer<typeof CreateApiKeyReplySchema>;

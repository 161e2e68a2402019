import {
  CreateApiKeyBodySchema,
  ui,
  type ApiKeyKind,
  type CreateApiKeyBody,
} from '@herald/contract';

/** The API & Webhooks screen's pure rules, apart from its components (docs/api.md). */

/** The create form's check before a request: the body the server takes, or its message. */
export function checkKeyForm(name: string, kind: ApiKeyKind): CreateApiKeyBody | { error: string } {
  const parsed = CreateApiKeyBodySchema.safeParse({ name, kind });
  if (parsed.success) return parsed.data;
  return { error: parsed.error.issues[0]?.message ?? ui.apiKeys.createFailed };
}

export function kindLabel(kind: ApiKeyKind): string {
  return ui.apiKeys.kinds[kind];
}

/** A listed key as its owner can tell it: the kind's prefix and its last four characters. */
export function maskedKey(kind: ApiKeyKind, last4: string): string {
  return `hk_${kind}_${ui.apiKeys.masked(last4)}`;
}

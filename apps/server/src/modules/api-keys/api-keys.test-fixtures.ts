import { expect } from 'vitest';
import type { ApiKeyKind, CreateApiKeyReply } from '@herald/contract';
import type { TestApp } from '../../../test/harness.js';

/** Test-only helpers shared by the API keys tests. */

export function postKey(t: TestApp, token: string | undefined, payload: unknown) {
  return t.request({ method: 'POST', url: '/api/api-keys', token, payload: payload as object });
}

/** Makes a key for the session's user; answers the reply with its one-time secret. */
export async function makeKey(
  t: TestApp,
  token: string,
  name = 'Script',
  kind: ApiKeyKind = 'live',
): Promise<CreateApiKeyReply> {
  const res = await postKey(t, token, { name, kind });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreateApiKeyReply>();
}

export function revokeKey(t: TestApp, token: string, id: string) {
  return t.request({ method: 'DELETE', url: `/api/api-keys/${id}`, token });
}

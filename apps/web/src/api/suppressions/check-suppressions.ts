import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { SuppressionCheckReply } from '@herald/contract';
import { postBody } from '../../lib/upload';
import { suppressionsRootKey } from './get-suppressions';

/**
 * POST /api/suppressions/check: how many of the numbers the campaign's owner suppressed. The
 * body is built from the numbers' bytes as the form writes them for the campaign (digits,
 * comma-joined), never as one JavaScript string: a million numbers would cost the page a long
 * task to decode, escape and hash.
 */
export function checkBody(numbers: Uint8Array<ArrayBuffer>, userEmail: string | undefined): Blob {
  const owner = userEmail ? `,"userEmail":${JSON.stringify(userEmail)}` : '';
  return new Blob(['{"numbers":"', numbers, `"${owner}}`], { type: 'application/json' });
}

export function checkSuppressions(body: Blob, signal?: AbortSignal) {
  return postBody<SuppressionCheckReply>('/suppressions/check', body, {
    headers: { 'content-type': 'application/json' },
    signal,
  });
}

/**
 * A short stand-in for the form's recipient keys in a cache key: their count and a 32-bit
 * FNV-1a hash of their bytes, so a million numbers are never held a second time by the cache.
 */
export function keysKey(keys: Float64Array): string {
  const words = new Uint32Array(keys.buffer, keys.byteOffset, keys.length * 2);
  let h = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) {
    h ^= words[i]!;
    h = Math.imul(h, 0x01000193);
  }
  return `${keys.length}:${(h >>> 0).toString(16)}`;
}

/** One check: its cache key (keysKey and the owner) and its body (checkBody). */
export interface CheckRequest {
  key: string;
  body: Blob;
}

/**
 * The Create Campaign form's count of suppressed numbers for `request` (null: no numbers); the
 * caller debounces what it passes. undefined until known.
 */
export function useSuppressedCount(request: CheckRequest | null) {
  const query = useQuery({
    queryKey: [...suppressionsRootKey, 'check', request?.key ?? null] as const,
    queryFn: async ({ signal }): Promise<number> =>
      request ? (await checkSuppressions(request.body, signal)).suppressed : 0,
    enabled: request !== null,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
  return { suppressed: request === null ? undefined : query.data, failed: query.isError };
}

import { useMutation } from '@tanstack/react-query';
import type { ProviderTestBody, ProviderTestResult } from '@herald/contract';
import { api } from '../../lib/api-client';

export interface TestProviderArgs {
  id: string;
  body: ProviderTestBody;
}

/**
 * POST /api/delivery/providers/{id}/test (Admin): one message through one of its senders; the
 * answer carries the provider's own status and body, refused or not.
 */
export function testProvider({ id, body }: TestProviderArgs): Promise<ProviderTestResult> {
  return api<ProviderTestResult>(`/delivery/providers/${encodeURIComponent(id)}/test`, {
    method: 'POST',
    body,
  });
}

export function useTestProvider() {
  return useMutation({ mutationFn: testProvider });
}

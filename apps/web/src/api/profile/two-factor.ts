import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  MessageBody,
  RecoveryCodesReply,
  TwoFactorDisableBody,
  TwoFactorSetupReply,
  TwoFactorStatus,
} from '@herald/contract';
import { api } from '../../lib/api-client';

/** The caller's own two-factor sign-in (docs/product.md, Two-factor sign-in). */
const STATUS_KEY = ['two-factor'] as const;

export function useTwoFactorStatus() {
  return useQuery({
    queryKey: STATUS_KEY,
    queryFn: ({ signal }) => api<TwoFactorStatus>('/two-factor', { signal }),
  });
}

/** After a change the status (and the recovery codes left) is read again. */
function useStatusMutation<A, R>(mutationFn: (args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => client.invalidateQueries({ queryKey: STATUS_KEY }),
  });
}

export function useStartTwoFactorSetup() {
  return useMutation({
    mutationFn: () => api<TwoFactorSetupReply>('/two-factor/setup', { method: 'POST' }),
  });
}

export function useConfirmTwoFactor() {
  return useStatusMutation((code: string) =>
    api<RecoveryCodesReply>('/two-factor/confirm', { method: 'POST', body: { code } }),
  );
}

export function useDisableTwoFactor() {
  return useStatusMutation((body: TwoFactorDisableBody) =>
    api<MessageBody>('/two-factor/disable', { method: 'POST', body }),
  );
}

export function useRegenerateRecoveryCodes() {
  return useStatusMutation((code: string) =>
    api<RecoveryCodesReply>('/two-factor/recovery-codes', { method: 'POST', body: { code } }),
  );
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateCreditBody, CreateCreditReply } from '@herald/contract';
import { api } from '../../lib/api-client';
import { creditsRootKey } from './get-credits';

/** What POST /api/credits receives: count and rate as numbers, rate in rupees. */
export type CreditRequest = CreateCreditBody & { count: number; rate: number };

export interface CreateCreditArgs {
  body: CreditRequest;
  /** One per submission: a retry with the same key writes nothing twice. */
  idempotencyKey: string;
}

/** Adds or removes credits; a reseller's transfer writes two entries. */
export function createCredit({ body, idempotencyKey }: CreateCreditArgs) {
  return api<CreateCreditReply>('/credits', {
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

export function useCreateCredit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCredit,
    // Balances and every transaction list change together.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: creditsRootKey }),
  });
}

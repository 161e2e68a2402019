import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateUserBody, CreateUserReply } from '@herald/contract';
import { api } from '../../lib/api-client';
import { usersRootKey } from './get-users';

/** Creates a user; the reply carries the generated password when none was given. */
export function createUser(body: CreateUserBody): Promise<CreateUserReply> {
  return api<CreateUserReply>('/users', { method: 'POST', body });
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersRootKey }),
  });
}

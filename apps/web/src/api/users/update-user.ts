import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateUserReply } from '@herald/contract';
import { api } from '../../lib/api-client';
import { usersRootKey } from './get-users';

export interface UpdateUserArgs {
  id: string;
  /** Multipart fields of UpdateUserBody plus the optional `companyLogo` file. */
  data: FormData;
}

export function updateUser({ id, data }: UpdateUserArgs): Promise<UpdateUserReply> {
  return api<UpdateUserReply>(`/users/update/${encodeURIComponent(id)}`, {
    method: 'PUT',
    body: data,
  });
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    // The list and any cached profile of the user show the edited fields.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersRootKey }),
  });
}

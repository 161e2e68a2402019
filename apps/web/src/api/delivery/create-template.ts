import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateTemplateBody, SenderTemplate } from '@herald/contract';
import { api } from '../../lib/api-client';
import { templatesRootKey } from './get-templates';

/** POST /api/delivery/senders/{id}/templates (Admin): 409 when the name and language exist. */
export function createTemplate(args: {
  senderId: string;
  body: CreateTemplateBody;
}): Promise<SenderTemplate> {
  return api<SenderTemplate>(`/delivery/senders/${encodeURIComponent(args.senderId)}/templates`, {
    method: 'POST',
    body: args.body,
  });
}

export function useCreateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTemplate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesRootKey }),
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CreateWebhookBody,
  CreateWebhookReply,
  MessageBody,
  RotateWebhookSecretReply,
  UpdateWebhookBody,
  WebhookEndpointReply,
  WebhookSettingsBody,
} from '@herald/contract';
import { api } from '../../lib/api-client';
import { webhooksRootKey } from './get-webhooks';

/** The webhooks API's changes (docs/api.md, Webhooks); each reloads the list and the logs. */

const path = (id: string, tail = '') => `/webhooks/${encodeURIComponent(id)}${tail}`;

/** POST /api/webhooks: the reply holds the endpoint's signing secret, once. */
export function createWebhook(body: CreateWebhookBody): Promise<CreateWebhookReply> {
  return api<CreateWebhookReply>('/webhooks', { method: 'POST', body });
}

export interface UpdateWebhookArgs {
  id: string;
  body: UpdateWebhookBody;
}

/** PATCH /api/webhooks/{id}: url, events, description or `enabled` (enabling clears failures). */
export function updateWebhook({ id, body }: UpdateWebhookArgs): Promise<WebhookEndpointReply> {
  return api<WebhookEndpointReply>(path(id), { method: 'PATCH', body });
}

/** DELETE /api/webhooks/{id}: the endpoint and its delivery log. */
export function deleteWebhook(id: string): Promise<MessageBody> {
  return api<MessageBody>(path(id), { method: 'DELETE' });
}

/** POST /api/webhooks/{id}/rotate-secret: a new secret at once, answered once. */
export function rotateWebhookSecret(id: string): Promise<RotateWebhookSecretReply> {
  return api<RotateWebhookSecretReply>(path(id, '/rotate-secret'), { method: 'POST' });
}

/** POST /api/webhooks/{id}/test: queues a `webhook.test` event to this endpoint (202). */
export function testWebhook(id: string): Promise<MessageBody> {
  return api<MessageBody>(path(id, '/test'), { method: 'POST' });
}

/** PUT /api/webhooks/settings: the low-balance threshold, null for none. */
export function saveWebhookSettings(body: WebhookSettingsBody): Promise<MessageBody> {
  return api<MessageBody>('/webhooks/settings', { method: 'PUT', body });
}

function useWebhookMutation<A, R>(mutationFn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksRootKey }),
  });
}

export const useCreateWebhook = () => useWebhookMutation(createWebhook);
export const useUpdateWebhook = () => useWebhookMutation(updateWebhook);
export const useDeleteWebhook = () => useWebhookMutation(deleteWebhook);
export const useRotateWebhookSecret = () => useWebhookMutation(rotateWebhookSecret);
export const useTestWebhook = () => useWebhookMutation(testWebhook);
export const useSaveWebhookSettings = () => useWebhookMutation(saveWebhookSettings);

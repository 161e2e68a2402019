import type {
  Branding,
  MessageBody,
  SetPasswordBody,
  SetPasswordCheckBody,
} from '@herald/contract';
import { api } from '../../lib/api-client';

/** POST /api/set-password with the token of a new user's mailed link and the chosen password. */
export function setPassword(body: SetPasswordBody): Promise<MessageBody> {
  return api<MessageBody>('/set-password', { method: 'POST', body });
}

/** POST /api/set-password/check: the branding the link's user sees while the link works, else 400. */
export function checkSetPasswordLink(body: SetPasswordCheckBody): Promise<Branding> {
  return api<Branding>('/set-password/check', { method: 'POST', body });
}

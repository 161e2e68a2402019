import type { LoginAnswer, LoginBody, LoginReply, TwoFactorLoginBody } from '@herald/contract';
import { api } from '../../lib/api-client';

/**
 * POST /api/login. A mutation without react-query: the login route must stay small, so the
 * screen keeps its own pending/error state. With two-factor sign-in on, the answer is a
 * challenge for the code step instead of a session.
 */
export function login(body: LoginBody): Promise<LoginAnswer> {
  return api<LoginAnswer>('/login', { method: 'POST', body });
}

/** POST /api/login/two-factor: the challenge and a code, for the session. */
export function loginWithCode(body: TwoFactorLoginBody): Promise<LoginReply> {
  return api<LoginReply>('/login/two-factor', { method: 'POST', body });
}

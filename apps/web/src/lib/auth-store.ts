import { useSyncExternalStore } from 'react';
import { isSessionUser, type SessionUser } from '@herald/contract';

/**
 * The session as the product stores it: the token and the user (id, email, role, name) in
 * localStorage. Components subscribe through `useSession`.
 */
const TOKEN_KEY = 'token';
const USER_KEY = 'user';

export interface Session {
  token: string;
  user: SessionUser;
}

let current: Session | null = read();
const listeners = new Set<() => void>();

function read(): Session | null {
  try {
    const token = localStorage.getItem(TOKEN_KEY);
    const raw = localStorage.getItem(USER_KEY);
    if (!token || !raw) return null;
    const user: unknown = JSON.parse(raw);
    return isSessionUser(user) ? { token, user } : null;
  } catch {
    return null;
  }
}

function emit() {
  for (const l of listeners) l();
}

export function getSession(): Session | null {
  return current;
}

export function setSession(token: string, user: SessionUser): void {
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(USER_KEY, JSON.stringify(user));
  current = { token, user };
  emit();
}

/**
 * Keeps the user, swaps the token: after a password change the old token is dead, and the
 * user's own new password ends any hold an Admin reset put on the session (mustChangePassword).
 */
export function replaceToken(token: string): void {
  if (!current) return;
  setSession(token, { ...current.user, mustChangePassword: false });
}

/** Changes fields of the stored user, keeping the token (two-factor sign-in turned on or off). */
export function updateSessionUser(patch: Partial<SessionUser>): void {
  if (!current) return;
  setSession(current.token, { ...current.user, ...patch });
}

export function clearSession(): void {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
  current = null;
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === TOKEN_KEY || e.key === USER_KEY || e.key === null) {
      current = read();
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, getSession, getSession);
}

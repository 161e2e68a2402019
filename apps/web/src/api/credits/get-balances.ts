import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useQuery,
} from '@tanstack/react-query';
import { BALANCES_NEXT_CURSOR_HEADER, type Balances } from '@herald/contract';
import { ApiError, notifyUnauthorized, serverMessageOf } from '../../lib/api-client';
import { getSession } from '../../lib/auth-store';
import { creditsRootKey } from './get-credits';

export interface BalancesParams {
  /** Only this user's balances (the server answers 404 outside the caller's scope). */
  email?: string;
  /** The last email of the previous page, as the server's X-Next-Cursor gave it. */
  cursor?: string;
  /** Users per page (the server's default and cap apply). */
  limit?: number;
}

export interface BalancesPage {
  balances: Balances;
  /** Pass as `cursor` for the next page; null on the last one (and for one user). */
  nextCursor: string | null;
}

/**
 * GET /api/credits/balances: email → credit type → balance, one page of the users in the
 * caller's scope (by email), or one user's with `email`. A raw fetch: the next page's cursor
 * comes in a response header, which api() does not return.
 */
export async function getBalancesPage(
  params: BalancesParams = {},
  signal?: AbortSignal,
): Promise<BalancesPage> {
  const query = new URLSearchParams();
  if (params.email) query.set('email', params.email);
  if (params.cursor) query.set('cursor', params.cursor);
  if (params.limit !== undefined) query.set('limit', String(params.limit));
  const qs = query.toString();
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = getSession()?.token;
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`/api/credits/balances${qs ? `?${qs}` : ''}`, { headers, signal });
  const text = await res.text();
  if (!res.ok) {
    if (res.status === 401 && token) notifyUnauthorized();
    throw new ApiError(res.status, serverMessageOf(text));
  }
  return {
    balances: parseBalances(text),
    nextCursor: decodeCursor(res.headers.get(BALANCES_NEXT_CURSOR_HEADER)),
  };
}

/** The header's cursor (percent-encoded by the server); null when absent or unreadable. */
export function decodeCursor(header: string | null): string | null {
  if (!header) return null;
  try {
    return decodeURIComponent(header);
  } catch {
    return null;
  }
}

/** The map from a body; anything else reads as no balances. */
export function parseBalances(text: string): Balances {
  try {
    const data: unknown = text ? JSON.parse(text) : undefined;
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Balances) : {};
  } catch {
    return {};
  }
}

/** The first page of balances, or one user's (`email`); kept for the map's existing callers. */
export function getBalances(
  params: Pick<BalancesParams, 'email'> = {},
  signal?: AbortSignal,
): Promise<Balances> {
  return getBalancesPage(params, signal).then((page) => page.balances);
}

export interface UseBalancesOptions {
  /** One user's balances only (e.g. the chosen user of a form); blank means the first page. */
  email?: string;
  enabled?: boolean;
}

/**
 * Under the credits key, so a credit change or a new campaign refreshes it. Without `email` it
 * is the first page of the scope's users only (BALANCES_PAGE_DEFAULT, by email): a caller that
 * needs one user's balance passes `email`.
 */
export function balancesQueryOptions(options: Pick<UseBalancesOptions, 'email'> = {}) {
  const email = options.email?.trim().toLowerCase() ?? '';
  return queryOptions({
    queryKey: [...creditsRootKey, 'balances', email ? { email } : 'first'] as const,
    queryFn: ({ signal }) => getBalances(email ? { email } : {}, signal),
  });
}

export function useBalances(options: UseBalancesOptions = {}) {
  return useQuery({ ...balancesQueryOptions(options), enabled: options.enabled ?? true });
}

/** Every page of the scope's balances, for a list that loads more as it scrolls. */
export function balancesPagesQueryOptions(limit?: number) {
  return infiniteQueryOptions({
    queryKey: [...creditsRootKey, 'balances', 'pages', { limit: limit ?? null }] as const,
    queryFn: ({ pageParam, signal }) => getBalancesPage({ cursor: pageParam, limit }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useBalancePages(limit?: number) {
  return useInfiniteQuery(balancesPagesQueryOptions(limit));
}

/** A user's balance of one type: Σ Added − Σ Removed as the server keeps it; 0 when absent. */
export function availableCredits(
  balances: Balances | undefined,
  email: string | undefined,
  creditType: string,
): number {
  if (!balances || !email) return 0;
  return balances[email]?.[creditType] ?? balances[email.toLowerCase()]?.[creditType] ?? 0;
}

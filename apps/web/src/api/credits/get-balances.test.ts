import { afterEach, describe, expect, it, vi } from 'vitest';
import { BALANCES_NEXT_CURSOR_HEADER, server as msg } from '@herald/contract';
import { ApiError } from '../../lib/api-client';
import {
  availableCredits,
  decodeCursor,
  getBalances,
  getBalancesPage,
  parseBalances,
} from './get-balances';

vi.mock('../../lib/auth-store', () => ({
  getSession: () => ({ token: 'tok', user: { id: '1', email: 'a@x.test', role: 'Admin' } }),
}));

afterEach(() => {
  vi.unstubAllGlobals();
});

function stubFetch(res: Response) {
  const fetchMock = vi.fn((_url: string, _init?: RequestInit) => Promise.resolve(res));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), {
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  });

describe('getBalancesPage', () => {
  it('asks for one page after the cursor and reads the next cursor from the header', async () => {
    const fetchMock = stubFetch(
      json(
        { 'b+1@x.test': { T: 3 } },
        { headers: { [BALANCES_NEXT_CURSOR_HEADER]: encodeURIComponent('b+1@x.test') } },
      ),
    );
    const page = await getBalancesPage({ cursor: 'a@x.test', limit: 50 });
    expect(page).toEqual({ balances: { 'b+1@x.test': { T: 3 } }, nextCursor: 'b+1@x.test' });
    const [url, init] = fetchMock.mock.calls[0]!;
    const qs = new URL(url, 'http://h').searchParams;
    expect(url.startsWith('/api/credits/balances?')).toBe(true);
    expect([qs.get('cursor'), qs.get('limit'), qs.has('email')]).toEqual(['a@x.test', '50', false]);
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer tok');
  });

  it('has no next cursor on the last page', async () => {
    const fetchMock = stubFetch(json({}));
    expect(await getBalancesPage()).toEqual({ balances: {}, nextCursor: null });
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/credits/balances');
  });

  it("asks for one user's balances with { email }", async () => {
    const fetchMock = stubFetch(json({ 'u@x.test': { T: 4 } }));
    expect(await getBalances({ email: 'u@x.test' })).toEqual({ 'u@x.test': { T: 4 } });
    const qs = new URL(fetchMock.mock.calls[0]![0], 'http://h').searchParams;
    expect(qs.get('email')).toBe('u@x.test');
  });

  it("throws the server's message", async () => {
    stubFetch(json({ message: msg.userNotFound }, { status: 404 }));
    const err = await getBalances({ email: 'z@x.test' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(404);
    expect((err as ApiError).serverMessage).toBe(msg.userNotFound);
  });
});

describe('balance helpers', () => {
  it('parseBalances reads a map and nothing else', () => {
    expect(parseBalances('{"a@x.test":{"T":1}}')).toEqual({ 'a@x.test': { T: 1 } });
    for (const bad of ['', 'nope', '[]', 'null', '3']) expect(parseBalances(bad)).toEqual({});
  });

  it('decodeCursor undoes the percent-encoding; null when absent or broken', () => {
    expect(decodeCursor('a%2Bb%40x.test')).toBe('a+b@x.test');
    expect(decodeCursor(null)).toBeNull();
    expect(decodeCursor('')).toBeNull();
    expect(decodeCursor('%E0%A4%A')).toBeNull();
  });

  it('availableCredits reads one balance, 0 when absent', () => {
    const b = { 'u@x.test': { T: 7 } };
    expect(availableCredits(b, 'u@x.test', 'T')).toBe(7);
    expect(availableCredits(b, 'U@x.test', 'T')).toBe(7);
    expect(availableCredits(b, 'u@x.test', 'Other')).toBe(0);
    expect(availableCredits(undefined, 'u@x.test', 'T')).toBe(0);
    expect(availableCredits(b, undefined, 'T')).toBe(0);
  });
});

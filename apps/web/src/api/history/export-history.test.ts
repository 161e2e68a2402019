import { afterEach, describe, expect, it, vi } from 'vitest';
import { server, ui } from '@herald/contract';
import { ApiError, errorMessage } from '../../lib/api-client';
import { exportHistory } from './export-history';
import { EMPTY_HISTORY_FILTERS } from './get-history';

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

describe('exportHistory', () => {
  it('sends the filters, tzOffset and bearer token, and reports bytes received', async () => {
    const body = new Uint8Array([1, 2, 3, 4, 5]);
    const fetchMock = stubFetch(
      new Response(body, {
        headers: { 'content-disposition': 'attachment; filename="ledger.xlsx"' },
      }),
    );
    const progress: number[] = [];
    const file = await exportHistory(
      { ...EMPTY_HISTORY_FILTERS, creditType: 'With DP - domestic', userEmail: 'u@x.test' },
      (n) => progress.push(n),
    );
    const [url, init] = fetchMock.mock.calls[0]!;
    const qs = new URL(url, 'http://h').searchParams;
    expect(url.startsWith('/api/credits/history/export?')).toBe(true);
    expect(qs.get('creditType')).toBe('With DP - domestic');
    expect(qs.get('userEmail')).toBe('u@x.test');
    expect(qs.get('tzOffset')).toBe(String(new Date().getTimezoneOffset()));
    expect(qs.has('cursor') || qs.has('limit') || qs.has('startDate')).toBe(false);
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer tok');
    expect(file.filename).toBe('ledger.xlsx');
    expect(file.blob.size).toBe(5);
    expect(progress.at(-1)).toBe(5);
  });

  it('falls back to transaction-history.xlsx without Content-Disposition', async () => {
    stubFetch(new Response(new Uint8Array([1])));
    const file = await exportHistory(EMPTY_HISTORY_FILTERS, () => {});
    expect(file.filename).toBe('transaction-history.xlsx');
  });

  it("throws the server's message", async () => {
    stubFetch(new Response(JSON.stringify({ message: 'Nope.' }), { status: 403 }));
    const err = await exportHistory(EMPTY_HISTORY_FILTERS, () => {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).serverMessage).toBe('Nope.');
  });

  it('throws the 429 message of a refused export (rate limit or one already running)', async () => {
    stubFetch(
      new Response(JSON.stringify({ message: server.historyExportRunning }), {
        status: 429,
        headers: { 'retry-after': '10' },
      }),
    );
    const err = await exportHistory(EMPTY_HISTORY_FILTERS, () => {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(429);
    expect(errorMessage(err, ui.history.exportFailed)).toBe(server.historyExportRunning);
  });

  it('throws without a message when the error body is not JSON', async () => {
    stubFetch(new Response('gateway down', { status: 502 }));
    const err = await exportHistory(EMPTY_HISTORY_FILTERS, () => {}).catch((e: unknown) => e);
    expect((err as ApiError).serverMessage).toBeUndefined();
  });
});

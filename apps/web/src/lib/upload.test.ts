import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, setUnauthorizedHandler } from './api-client';
import { clearSession, setSession } from './auth-store';
import { postBody, UploadNetworkError } from './upload';

/** Just enough of XMLHttpRequest for postBody; `answer` plays the server. */
class FakeXhr {
  static last: FakeXhr;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  status = 0;
  responseText = '';
  upload: {
    onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null;
  } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send() {}
  abort() {
    this.onabort?.();
  }
  answer(status: number, body: string) {
    this.status = status;
    this.responseText = body;
    this.onload?.();
  }
}

beforeEach(() => vi.stubGlobal('XMLHttpRequest', FakeXhr));
afterEach(() => {
  vi.unstubAllGlobals();
  setUnauthorizedHandler(undefined);
});

describe('postBody', () => {
  it('posts under /api with the given headers, reports progress and resolves the JSON', async () => {
    const progress: number[] = [];
    const done = postBody<{ ok: boolean }>('/campaigns', new Blob(['x']), {
      headers: { 'Idempotency-Key': 'k-1' },
      onProgress: (f) => progress.push(f),
    });
    const xhr = FakeXhr.last;
    expect([xhr.method, xhr.url, xhr.headers['Idempotency-Key']]).toEqual([
      'POST',
      '/api/campaigns',
      'k-1',
    ]);
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 25, total: 100 });
    xhr.answer(201, '{"ok":true}');
    await expect(done).resolves.toEqual({ ok: true });
    expect(progress).toEqual([0.25, 1]);
  });

  it("throws ApiError with the server's message", async () => {
    const done = postBody('/campaigns', new Blob([]));
    FakeXhr.last.answer(409, '{"message":"Insufficient credits for this message type."}');
    await expect(done).rejects.toEqual(
      new ApiError(409, 'Insufficient credits for this message type.'),
    );
    const plain = postBody('/campaigns', new Blob([]));
    FakeXhr.last.answer(502, '<html>bad gateway</html>');
    await expect(plain).rejects.toEqual(new ApiError(502, undefined));
  });

  it('throws UploadNetworkError when no answer came', async () => {
    const done = postBody('/campaigns', new Blob([]));
    FakeXhr.last.onerror?.();
    await expect(done).rejects.toBeInstanceOf(UploadNetworkError);
  });

  it('calls the 401 handler only when a token was sent', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    const done = postBody('/campaigns', new Blob([]));
    FakeXhr.last.answer(401, '{"message":"Unauthorized"}');
    await expect(done).rejects.toBeInstanceOf(ApiError);
    // No session in this test, so no token: a 401 here is not an expired session.
    expect(handler).not.toHaveBeenCalled();
  });

  it('sends the bearer token and calls the 401 handler when it is refused', async () => {
    const store = new Map<string, string>();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => store.set(k, v),
      removeItem: (k: string) => store.delete(k),
    });
    setSession('tok-1', {
      id: 'u1',
      email: 'u@x.test',
      name: 'U',
      role: 'User',
      status: 'Active',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    try {
      const done = postBody('/campaigns', new Blob([]));
      expect(FakeXhr.last.headers.authorization).toBe('Bearer tok-1');
      FakeXhr.last.answer(401, '{"message":"Unauthorized"}');
      await expect(done).rejects.toEqual(new ApiError(401, 'Unauthorized'));
      expect(handler).toHaveBeenCalledOnce();
    } finally {
      clearSession();
    }
  });
});

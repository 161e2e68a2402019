import { ApiError, notifyUnauthorized, serverMessageOf } from './api-client';
import { getSession } from './auth-store';

/** The request failed before any answer (network down, aborted): the outcome is unknown. */
export class UploadNetworkError extends Error {
  constructor() {
    super('Network error');
    this.name = 'UploadNetworkError';
  }
}

export interface UploadOptions {
  headers?: Record<string, string>;
  /** Fraction of the body sent so far, 0..1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/**
 * A POST under /api with upload progress, which fetch() cannot report. Sends the bearer token
 * like `api()`, throws ApiError on non-2xx (calling the 401 handler) and UploadNetworkError
 * when no answer came. A FormData body gets its multipart content type from the browser.
 */
export function postBody<T>(path: string, body: Blob | FormData, opts: UploadOptions = {}) {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api${path}`);
    for (const [name, value] of Object.entries(opts.headers ?? {})) {
      xhr.setRequestHeader(name, value);
    }
    xhr.setRequestHeader('accept', 'application/json');
    const token = getSession()?.token;
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) opts.onProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        opts.onProgress?.(1);
        try {
          resolve((xhr.responseText ? JSON.parse(xhr.responseText) : undefined) as T);
        } catch {
          reject(new ApiError(xhr.status, undefined));
        }
        return;
      }
      if (xhr.status === 401 && token) notifyUnauthorized();
      reject(new ApiError(xhr.status, serverMessageOf(xhr.responseText)));
    };
    xhr.onerror = () => reject(new UploadNetworkError());
    xhr.onabort = () => reject(new UploadNetworkError());
    opts.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

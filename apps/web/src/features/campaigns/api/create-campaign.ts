import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateCampaignReply } from '@herald/contract';
import { ApiError, notifyUnauthorized, serverMessageOf } from '../../../lib/api-client';
import { getSession } from '../../../lib/auth-store';
import { campaignsRootKey } from './get-campaigns';

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
 * when no answer came.
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

/** The media files by their multipart field names (spec 7); `images` is repeated. */
export interface CampaignUploadFiles {
  dp?: File | null;
  singleCreative?: File | null;
  images?: readonly File[];
  video?: File | null;
  pdf?: File | null;
  audio?: File | null;
}

export interface CreateCampaignArgs {
  /** Text fields already checked and trimmed; empty ones left out. */
  fields: Readonly<Record<string, string>>;
  /** The recipients comma-joined, as ASCII bytes (encodeRecipients). */
  to: Uint8Array;
  files: CampaignUploadFiles;
  /** One per submission: a retry with the same key creates nothing twice (decisions 3). */
  idempotencyKey: string;
  onProgress?: (fraction: number) => void;
}

/** A quoted header parameter, escaped as browsers do for form data. */
function quoted(value: string): string {
  return `"${value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22')}"`;
}

/**
 * The multipart/form-data body, built as a Blob of parts rather than a FormData: `to` can hold
 * a million numbers (16 MB), and as bytes it goes out without being a string on the page;
 * the files are referenced, not read. The boundary is lower case, as Blob.type lowers it.
 */
export function campaignBody(args: Pick<CreateCampaignArgs, 'fields' | 'to' | 'files'>) {
  const random = crypto.getRandomValues(new Uint8Array(12));
  const boundary = `----heraldform${Array.from(random, (b) => b.toString(16).padStart(2, '0')).join('')}`;
  const parts: BlobPart[] = [];
  const field = (name: string, value: string) => {
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}\r\n\r\n`);
    parts.push(value, '\r\n');
  };
  const file = (name: string, f: File) => {
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}; filename=${quoted(f.name)}\r\n` +
        `Content-Type: ${f.type || 'application/octet-stream'}\r\n\r\n`,
    );
    parts.push(f, '\r\n');
  };
  for (const [name, value] of Object.entries(args.fields)) field(name, value);
  // As a file part, the server scans the numbers as they stream in, never holding them as
  // one 16 MB string (spec 7 names the field `to`; the file name only marks it as streamed).
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="to"; filename="to.txt"\r\n` +
      'Content-Type: text/plain\r\n\r\n',
  );
  parts.push(args.to as BlobPart, '\r\n');
  const { images = [], ...single } = args.files;
  for (const [name, f] of Object.entries(single)) if (f) file(name, f);
  for (const f of images) file('images', f);
  parts.push(`--${boundary}--\r\n`);
  const contentType = `multipart/form-data; boundary=${boundary}`;
  return { body: new Blob(parts, { type: contentType }), contentType };
}

/** POST /api/campaigns (multipart): creates the campaign and debits the owner's credits. */
export function createCampaign(args: CreateCampaignArgs): Promise<CreateCampaignReply> {
  const { body, contentType } = campaignBody(args);
  return postBody<CreateCampaignReply>('/campaigns', body, {
    headers: { 'Idempotency-Key': args.idempotencyKey, 'content-type': contentType },
    onProgress: args.onProgress,
  });
}

export function useCreateCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCampaign,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: campaignsRootKey }),
        // Balances, transactions and history: the owner was debited.
        queryClient.invalidateQueries({ queryKey: ['credits'] }),
        queryClient.invalidateQueries({ queryKey: ['users', 'profile'] }),
      ]),
  });
}

import { Pool } from 'undici';
import { z } from 'zod';
import { server as msg, type ErrorClass } from '@herald/contract';
import type { FileStore } from '../../../lib/storage/file-store.js';
import type { MediaIdCache } from './media-cache.js';
import { internationalDigits } from './phone-format.js';
import {
  ProviderSendError,
  type InboundMessage,
  type AnswerObserver,
  type OutboundMessage,
  type ProviderAdapter,
  type ProviderError,
  type SendAccepted,
  type StatusEvent,
} from './provider.js';
import { classifyWhatsAppError, whatsAppReason } from './whatsapp-errors.js';
import { LOCAL_CODES, planMessage, type OutboundFile, type WaBody } from './whatsapp-messages.js';
import {
  parseWhatsAppInbound,
  parseWhatsAppStatuses,
  verifyWhatsAppSignature,
  verifyWhatsAppSubscription,
} from './whatsapp-webhook.js';

/**
 * The WhatsApp Cloud API adapter (docs/delivery.md, Providers): sends with
 * `POST /{version}/{phone-number-id}/messages` and the bearer token, uploads a campaign's media
 * once per campaign and sender (`POST /{version}/{phone-number-id}/media`) and sends it by id,
 * reads Meta's error codes through one table (whatsapp-errors.ts), and takes the webhook's
 * verification GET and signed POSTs (whatsapp-webhook.ts). Built from plain settings by
 * registry.ts. Messages go over an undici keep-alive pool of its own, opened at the first send
 * and closed by `close()`: there is one request per message, and global fetch's per-request work
 * (its Request and Response objects, an AbortSignal.timeout and AbortSignal.any each) cost the
 * app about twice the CPU a message at 1,000 msg/s (docs/performance.md, Delivery CPU).
 * Uploads, once per campaign, stay on fetch for its multipart FormData.
 */

export interface WhatsAppCloudSettings {
  /** Graph API origin; `https://graph.facebook.com` in production, the fake's in tests. */
  baseUrl: string;
  /** e.g. `v21.0`. */
  apiVersion: string;
  phoneNumberId: string;
  /** Put in front of a domestic campaign's national numbers (phone-format.ts), e.g. `91`. */
  domesticCountryCode?: string;
}

export interface WhatsAppCloudCredentials {
  accessToken: string;
  /** Signs the webhook's POSTs (X-Hub-Signature-256). */
  appSecret: string;
  /** What Meta's GET subscription check must present. */
  verifyToken: string;
}

export interface WhatsAppCloudDeps {
  /** Reads the campaign's media bytes for the upload. */
  files: Pick<FileStore, 'open'>;
  media: MediaIdCache;
}

/**
 * Meta keeps an uploaded media id for 30 days; one a day short of that is uploaded again, so a
 * send never names an id about to be forgotten.
 */
export const WA_MEDIA_RETENTION_MS = 30 * 24 * 3600_000;
export const WA_MEDIA_REUSE_MS = WA_MEDIA_RETENTION_MS - 24 * 3600_000;

const SEND_TIMEOUT_MS = 15_000;
/** Connections kept open to the Graph API: at least the messages in flight at once. */
const MAX_CONNECTIONS = 256;

const SendAnswerSchema = z.object({
  messages: z.array(z.object({ id: z.string().min(1) })).min(1),
});
const UploadAnswerSchema = z.object({ id: z.string().min(1) });
const GraphErrorSchema = z.object({
  error: z.object({
    message: z.string().optional(),
    type: z.string().optional(),
    code: z.number().int(),
    error_data: z.object({ details: z.string().optional() }).optional(),
  }),
});

export class WhatsAppCloudAdapter implements ProviderAdapter {
  readonly simulated = false;
  private readonly root: string;
  /** Opened at the first message: an adapter built for webhooks alone never opens one. */
  private pool: { pool: Pool; messagesPath: string } | undefined;

  constructor(
    private readonly settings: WhatsAppCloudSettings,
    private readonly credentials: WhatsAppCloudCredentials,
    private readonly deps: WhatsAppCloudDeps,
    /** The provider's key (docs/delivery.md, Providers in the database). */
    readonly name = 'whatsapp_cloud',
  ) {
    this.root = `${settings.baseUrl.replace(/\/+$/, '')}/${settings.apiVersion}/${encodeURIComponent(settings.phoneNumberId)}`;
  }

  async send(
    message: OutboundMessage,
    signal?: AbortSignal,
    observe?: AnswerObserver,
  ): Promise<SendAccepted> {
    const to = internationalDigits(
      message.to,
      message.creditType,
      this.settings.domesticCountryCode,
    );
    const plan = await planMessage({ ...message, to }, (f) =>
      this.mediaId(message, f, signal, observe),
    );
    const id = await this.post(plan.main, signal, observe);
    // The row tracks the first message; a later part that fails leaves it sent.
    for (const extra of plan.extras) {
      await this.post(extra, signal, observe).catch(() => undefined);
    }
    return { providerMessageId: id };
  }

  private async post(body: WaBody, signal?: AbortSignal, observe?: AnswerObserver) {
    const res = await this.message(JSON.stringify(body), signal, observe);
    const parsed = SendAnswerSchema.safeParse(res.json);
    if (!parsed.success) {
      throw new ProviderSendError({ code: String(res.status), text: msg.providerNoMessageId });
    }
    return (parsed.data.messages[0] as { id: string }).id;
  }

  private messagesPool(): { pool: Pool; messagesPath: string } {
    if (!this.pool) {
      const base = new URL(this.root);
      this.pool = {
        pool: new Pool(base.origin, {
          connections: MAX_CONNECTIONS,
          keepAliveTimeout: 30_000,
          headersTimeout: SEND_TIMEOUT_MS,
          bodyTimeout: SEND_TIMEOUT_MS,
        }),
        messagesPath: `${base.pathname}/messages`,
      };
    }
    return this.pool;
  }

  /** `POST .../messages` over the pool; a refusal throws as `request` does. */
  private async message(
    body: string,
    signal?: AbortSignal,
    observe?: AnswerObserver,
  ): Promise<{ status: number; json: unknown }> {
    const { pool, messagesPath } = this.messagesPool();
    let status: number;
    let retryAfter: string | undefined;
    let text: string;
    try {
      const res = await pool.request({
        path: messagesPath,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${this.credentials.accessToken}`,
        },
        body,
        signal,
      });
      status = res.statusCode;
      const h = res.headers['retry-after'];
      retryAfter = Array.isArray(h) ? h[0] : h;
      text = await res.body.text();
      observe?.({ status, body: text });
    } catch (err) {
      throw networkError(err);
    }
    return answer(status, retryAfter, text);
  }

  /** The provider's id of a campaign file: uploaded once per campaign and sender. */
  private mediaId(
    m: OutboundMessage,
    f: OutboundFile,
    signal?: AbortSignal,
    observe?: AnswerObserver,
  ): Promise<string> {
    const key = {
      senderKey: this.settings.phoneNumberId,
      campaignId: m.campaignId,
      mediaKey: f.key,
    };
    return this.deps.media.idFor(
      key,
      WA_MEDIA_REUSE_MS,
      () => this.upload(f, signal, observe),
      signal,
    );
  }

  private async upload(
    f: OutboundFile,
    signal?: AbortSignal,
    observe?: AnswerObserver,
  ): Promise<string> {
    const opened = await this.deps.files.open(f.key);
    if (!opened)
      throw new ProviderSendError({ code: LOCAL_CODES.invalid, text: `missing ${f.key}` });
    const chunks: Buffer[] = [];
    for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
    const form = new FormData();
    form.set('messaging_product', 'whatsapp');
    form.set('type', f.mime);
    form.set(
      'file',
      new Blob([Buffer.concat(chunks)], { type: f.mime }),
      f.key.slice(f.key.lastIndexOf('/') + 1),
    );
    const res = await this.request(
      `${this.root}/media`,
      { method: 'POST', body: form },
      signal,
      observe,
    );
    const parsed = UploadAnswerSchema.safeParse(res.json);
    if (!parsed.success) {
      throw new ProviderSendError({ code: String(res.status), text: msg.providerNoMessageId });
    }
    return parsed.data.id;
  }

  /** One Graph API call over fetch (the upload); a refusal throws with Meta's code and title. */
  private async request(
    url: string,
    init: RequestInit,
    signal?: AbortSignal,
    observe?: AnswerObserver,
  ): Promise<{ status: number; json: unknown }> {
    const timeout = AbortSignal.timeout(SEND_TIMEOUT_MS);
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, {
        ...init,
        headers: { ...init.headers, authorization: `Bearer ${this.credentials.accessToken}` },
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      text = await res.text();
      observe?.({ status: res.status, body: text });
    } catch (err) {
      throw networkError(err);
    }
    return answer(res.status, res.headers.get('retry-after') ?? undefined, text);
  }

  classifyError(error: ProviderError): ErrorClass {
    if (error.code === LOCAL_CODES.invalid) return 'permanent';
    return classifyWhatsAppError(error);
  }

  verifyCallback(headers: Record<string, string | string[] | undefined>, rawBody: Buffer): boolean {
    return verifyWhatsAppSignature(this.credentials.appSecret, headers, rawBody);
  }

  verifySubscription(query: Record<string, string | undefined>): string | null {
    return verifyWhatsAppSubscription(this.credentials.verifyToken, query);
  }

  parseStatusCallback(body: unknown): StatusEvent[] {
    return parseWhatsAppStatuses(body);
  }

  parseInbound(body: unknown): InboundMessage[] {
    return parseWhatsAppInbound(body);
  }

  /** Closes the kept-alive connections (the directory calls it when it drops the adapter). */
  close(): void {
    const open = this.pool;
    this.pool = undefined;
    void open?.pool.destroy().catch(() => {});
  }
}

function networkError(err: unknown): ProviderSendError {
  return new ProviderSendError({
    code: 'network',
    text: err instanceof Error ? err.message : String(err),
  });
}

/** A Graph answer: its JSON when 2xx, else a throw with Meta's code and the table's title. */
function answer(
  status: number,
  retryAfter: string | undefined,
  text: string,
): { status: number; json: unknown } {
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: judged by the status alone
  }
  if (status >= 200 && status < 300) return { status, json };
  throw new ProviderSendError(refusal(status, retryAfter, json, text));
}

function refusal(
  status: number,
  retryAfterHeader: string | undefined,
  json: unknown,
  text: string,
): ProviderError {
  const retryAfter = Number(retryAfterHeader ?? NaN);
  const wait =
    Number.isFinite(retryAfter) && retryAfter >= 0 ? { retryAfterSeconds: retryAfter } : {};
  const parsed = GraphErrorSchema.safeParse(json);
  if (!parsed.success) {
    return { code: String(status), text: text.slice(0, 200) || `HTTP ${status}`, ...wait };
  }
  const e = parsed.data.error;
  return {
    code: String(e.code),
    text: whatsAppReason(e.code, e.error_data?.details ?? e.message),
    ...wait,
  };
}

import { createHash, timingSafeEqual } from 'node:crypto';
import type { ErrorClass } from '@herald/contract';
import {
  ProviderSendError,
  type CallbackRequest,
  type InboundMessage,
  type AnswerObserver,
  type OutboundMessage,
  type ProviderAdapter,
  type ProviderError,
  type SendAccepted,
  type StatusEvent,
} from './provider.js';
import { internationalDigits } from './phone-format.js';

/**
 * One adapter for SMS gateways with a form-encoded HTTP API (docs/delivery.md, Providers): a
 * preset says how its send is written and answered, how its callbacks are proven and read, and
 * what it expects back. Two presets: Jasmin's HTTP API (sms-jasmin.ts) and Twilio's Messages
 * API (sms-twilio.ts). Both report by their own message id, so the engine records each accepted
 * id (`reportsByProviderId`).
 */

export interface SmsHttpSettings {
  /** The gateway's origin, e.g. `http://jasmin:1401` or `https://api.twilio.com`. */
  baseUrl: string;
  /** The sender address (number or alphanumeric sender id). */
  from: string;
  /**
   * Where the gateway posts its callbacks: this app's public webhook URL for the provider
   * (registry.ts builds it, with the token for a gateway that signs nothing).
   */
  callbackUrl: string;
  /** Put in front of a domestic campaign's national numbers (phone-format.ts), e.g. `91`. */
  domesticCountryCode?: string;
}

export interface SmsHttpCredentials {
  /** Jasmin's username; Twilio's Account SID. */
  username: string;
  /** Jasmin's password; Twilio's Auth Token (which also signs its callbacks). */
  password: string;
  /** The unguessable token in the callback URL, for a gateway that signs nothing. */
  callbackToken?: string;
}

/** Callback form fields, each name with its values in the order received. */
export type FormFields = Map<string, string[]>;

/** What a preset's gateway looks like. */
export interface SmsPreset {
  readonly name: 'jasmin' | 'twilio';
  /** True when its callbacks carry a signature; false needs the callback token. */
  readonly signs: boolean;
  request(
    m: OutboundMessage,
    s: SmsHttpSettings,
    c: SmsHttpCredentials,
  ): { url: string; form: URLSearchParams; headers: Record<string, string> };
  /** The message id of an accepted send, or what the gateway refused with. */
  answer(status: number, text: string): { id: string } | { error: ProviderError };
  classify(error: ProviderError): ErrorClass;
  verify(
    headers: Record<string, string | string[] | undefined>,
    fields: FormFields,
    s: SmsHttpSettings,
    c: SmsHttpCredentials,
    request?: CallbackRequest,
  ): boolean;
  statuses(fields: FormFields): StatusEvent[];
  inbound(fields: FormFields): InboundMessage[];
  readonly reply: { contentType: string; body: string };
}

const SEND_TIMEOUT_MS = 15_000;

/** A form body's fields (URLSearchParams decodes `+` and percent escapes as browsers do). */
export function formFields(raw: Buffer | string): FormFields {
  const fields: FormFields = new Map();
  for (const [k, v] of new URLSearchParams(raw.toString())) {
    const list = fields.get(k);
    if (list) list.push(v);
    else fields.set(k, [v]);
  }
  return fields;
}

/** A field's first value. */
export const field = (f: FormFields, name: string): string | undefined => f.get(name)?.[0];

export class SmsHttpAdapter implements ProviderAdapter {
  readonly simulated = false;
  readonly reportsByProviderId = true;
  readonly callbackToken?: string;

  constructor(
    private readonly preset: SmsPreset,
    private readonly settings: SmsHttpSettings,
    private readonly credentials: SmsHttpCredentials,
    /** The provider's key (docs/delivery.md, Providers in the database); the preset's name. */
    private readonly key?: string,
  ) {
    if (!preset.signs) {
      // Without a signature the token is the only proof a callback is the gateway's.
      if (!credentials.callbackToken || credentials.callbackToken.length < 32) {
        throw new Error(`${preset.name}: a callback token of at least 32 characters is required`);
      }
      this.callbackToken = credentials.callbackToken;
    }
  }

  get name(): string {
    return this.key ?? this.preset.name;
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
    const { url, form, headers } = this.preset.request(
      { ...message, to },
      this.settings,
      this.credentials,
    );
    const timeout = AbortSignal.timeout(SEND_TIMEOUT_MS);
    let status: number;
    let text: string;
    let retryAfter: string | null;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: form.toString(),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      status = res.status;
      retryAfter = res.headers.get('retry-after');
      text = await res.text();
      observe?.({ status, body: text });
    } catch (err) {
      throw new ProviderSendError({
        code: 'network',
        text: err instanceof Error ? err.message : String(err),
      });
    }
    const answer = this.preset.answer(status, text);
    if ('id' in answer) return { providerMessageId: answer.id };
    const seconds = retryAfter === null ? NaN : Number(retryAfter);
    throw new ProviderSendError({
      ...answer.error,
      ...(Number.isFinite(seconds) && seconds >= 0 ? { retryAfterSeconds: seconds } : {}),
    });
  }

  classifyError(error: ProviderError): ErrorClass {
    if (error.code === 'network') return 'retryable';
    return this.preset.classify(error);
  }

  verifyCallback(
    headers: Record<string, string | string[] | undefined>,
    rawBody: Buffer,
    request?: CallbackRequest,
  ): boolean {
    // A gateway without signatures is proven by the token its callback URL carries (the route
    // checks it too, before this).
    if (!this.preset.signs)
      return (
        tokenOf(request) !== null && sameSecret(tokenOf(request) ?? '', this.callbackToken ?? '')
      );
    return this.preset.verify(
      headers,
      formFields(rawBody),
      this.settings,
      this.credentials,
      request,
    );
  }

  parseBody(rawBody: Buffer): FormFields {
    return formFields(rawBody);
  }

  parseStatusCallback(body: unknown): StatusEvent[] {
    return this.preset.statuses(asFields(body));
  }

  parseInbound(body: unknown): InboundMessage[] {
    return this.preset.inbound(asFields(body));
  }

  callbackReply(): { contentType: string; body: string } {
    return this.preset.reply;
  }
}

/** The last path segment of a callback's URL: where the gateway's token sits. */
function tokenOf(request: CallbackRequest | undefined): string | null {
  if (!request) return null;
  const path = request.url.split('?')[0] ?? '';
  const last = path.slice(path.lastIndexOf('/') + 1);
  return last ? decodeURIComponent(last) : null;
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return expected.length > 0 && timingSafeEqual(digest(given), digest(expected));
}

/** The parsed body as parseBody made it; anything else is not a form callback. */
function asFields(body: unknown): FormFields {
  if (body instanceof Map) return body as FormFields;
  throw new Error('not a form body');
}

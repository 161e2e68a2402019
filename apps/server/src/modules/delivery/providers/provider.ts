import type { CreditType, ErrorClass, StatusEventState } from '@herald/contract';

/**
 * What a message provider must offer the delivery engine. The engine knows nothing
 * of a provider's wire format: it sends through `send`, reads failures through `classifyError`,
 * and takes status webhooks through `verifyCallback` and `parseStatusCallback`. Adapters for
 * real providers live beside this file, one per provider (`providers/<name>.ts`).
 */

/** One message to one recipient, as the engine hands it over. */
export interface OutboundMessage {
  /** Idempotency reference, `${campaignId}:${phone}`: a provider that supports one never sends it twice; its status events carry it back. */
  reference: string;
  campaignId: string;
  /** Digits only, with the country code for international types. */
  to: string;
  creditType: CreditType;
  message: string;
  /**
   * The campaign's media files by their FileStore key (`uploads/campaigns/<name>`): an adapter
   * that needs the bytes reads them through the store, as its provider needs.
   */
  media: { kind: string; key: string; mime: string }[];
  cta: { call?: { number: string; text: string }; url?: { url: string; text: string } } | null;
  /**
   * An approved provider template to send instead of free text (WhatsApp `type: "template"`),
   * with its body's variables in order.
   */
  template?: OutboundTemplate;
}

/** A provider template by name and language, with the values of its body's `{{n}}` variables. */
export interface OutboundTemplate {
  name: string;
  language: string;
  bodyParameters: string[];
}

export interface SendAccepted {
  providerMessageId: string;
}

/** One message's answer within a batch send. */
export type BatchAnswer =
  { ok: true; providerMessageId: string } | { ok: false; error: ProviderError };

/** A send the provider refused or that never reached it. */
export interface ProviderError {
  /** The provider's code (HTTP status or its own, e.g. WhatsApp's 130429), as text. */
  code: string;
  text: string;
  /** Seconds the provider asked us to wait (Retry-After), when it said. */
  retryAfterSeconds?: number;
}

/** One status change reported by a provider's webhook. */
export interface StatusEvent {
  /**
   * The reference the message was sent with (see OutboundMessage.reference), when the provider
   * carries it back; null for one that reports only its own id (the row is then found by
   * `providerMessageId`, see docs/delivery.md, Providers).
   */
  reference: string | null;
  providerMessageId: string | null;
  state: StatusEventState;
  /** When the provider says it happened. */
  at: Date;
  error?: { code: string; text: string };
}

/**
 * A message a person sent back to one of our senders (WhatsApp `messages[]`, an SMS gateway's
 * MO): how opt-out keywords (STOP, START, …) reach Herald.
 */
export interface InboundMessage {
  /** The person's number, digits only, with its country code. */
  from: string;
  /** The sender's address it was sent to (a phone number id or sender id), when the body says. */
  to: string | null;
  text: string;
  /** When the provider says it arrived. */
  at: Date;
}

export interface ProviderAdapter {
  /** The `senders.provider` value it serves. */
  readonly name: string;
  /** True when nothing leaves this server (the simulator): the screens say so. */
  readonly simulated: boolean;
  /**
   * Sends one message; throws a ProviderSendError when the provider refuses. `observe` hears
   * each HTTP answer as it came (the Providers screen's test message shows it).
   */
  send(
    message: OutboundMessage,
    signal?: AbortSignal,
    observe?: AnswerObserver,
  ): Promise<SendAccepted>;
  /**
   * Optional, for a provider whose API takes many messages in one request (e.g. Infobip's
   * WhatsApp template endpoint, POST /whatsapp/1/message/template with `messages: [...]`, at
   * most `maxBatch` of them): one answer per message, in order. A failure of the request as a
   * whole (network, a 5xx for all) throws, and counts for each of its messages. The engine
   * still counts the rate, the in-flight places and the retries per message.
   */
  sendBatch?(messages: OutboundMessage[], signal?: AbortSignal): Promise<BatchAnswer[]>;
  /** The most messages `sendBatch` takes at once. */
  readonly maxBatch?: number;
  /**
   * True when its status events name messages by the provider's id only (Jasmin, Twilio): the
   * engine then records each accepted id so the status path can find the recipient.
   */
  readonly reportsByProviderId?: boolean;
  /** How the engine treats a refusal: retry later, slow the sender, delay this recipient, fail. */
  classifyError(error: ProviderError): ErrorClass;
  /**
   * Whether a webhook request really comes from the provider (signature over the raw body, or
   * over the URL and form parameters, as the provider signs). Runs before anything is parsed.
   */
  verifyCallback(
    headers: Record<string, string | string[] | undefined>,
    rawBody: Buffer,
    request?: CallbackRequest,
  ): boolean;
  /**
   * The unguessable path segment its webhook URL carries (`/webhooks/<provider>/<token>`), for
   * a provider that signs nothing (Jasmin): the route refuses a request without it.
   */
  readonly callbackToken?: string;
  /**
   * Reads a webhook body into what `parseStatusCallback` and `parseInbound` take; JSON when
   * absent. Form-encoded providers give a flat record of their fields.
   */
  parseBody?(rawBody: Buffer, contentType: string | undefined): unknown;
  /** The status events of one webhook body (one request may carry many). */
  parseStatusCallback(body: unknown): StatusEvent[];
  /** The inbound messages of one webhook body, for a provider whose webhooks carry them. */
  parseInbound?(body: unknown): InboundMessage[];
  /** The answer the provider expects once its callback is written (JSON `{ received }` when absent). */
  callbackReply?(): { contentType: string; body: string };
  /**
   * A webhook subscription check by GET (WhatsApp's `hub.mode`, `hub.verify_token`,
   * `hub.challenge`): the text to echo, or null to refuse.
   */
  verifySubscription?(query: Record<string, string | undefined>): string | null;
}

/** Hears a provider's raw HTTP answer: its status and body text. */
export type AnswerObserver = (answer: { status: number; body: string }) => void;

/** What a webhook request looked like beyond its headers and body. */
export interface CallbackRequest {
  /** The path and query as received, e.g. `/api/delivery/webhooks/twilio/<token>?x=1`. */
  url: string;
}

/** Thrown by `send` with what the provider answered. */
export class ProviderSendError extends Error {
  constructor(readonly error: ProviderError) {
    super(`provider refused: ${error.code} ${error.text}`);
    this.name = 'ProviderSendError';
  }
}

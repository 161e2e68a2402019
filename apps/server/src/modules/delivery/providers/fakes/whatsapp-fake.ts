import { randomBytes } from 'node:crypto';
import { whatsAppSignature } from '../whatsapp-webhook.js';
import {
  ProviderFake,
  json,
  postCallback,
  type FakeAnswer,
  type SeenRequest,
} from './fake-http.js';

/**
 * A stand-in for the WhatsApp Cloud API (tests only), written from Meta's Cloud API reference:
 * `POST /{version}/{phone-number-id}/messages` answers `{ messaging_product, contacts,
 * messages: [{ id: "wamid..." }] }`, `POST /{version}/{phone-number-id}/media` (multipart)
 * answers `{ id }`, a wrong token 401 with Graph error 190, and a refusal the Graph error JSON
 * `{ error: { message, type, code, error_data: { messaging_product, details }, fbtrace_id } }`
 * with Meta's HTTP status. It records every request (or, with `keep: 'counts'`, as the
 * benchmark's fake process runs it, only counts: docs/delivery.md, WhatsApp Cloud API), and
 * posts status and inbound webhooks signed with the app secret, in Meta's envelope.
 */

export interface WhatsAppFakeOptions {
  apiVersion: string;
  phoneNumberId: string;
  displayPhoneNumber?: string;
  accessToken: string;
  appSecret: string;
  /** 0 or absent: any free port. */
  port?: number;
  /**
   * 'all' (the default): every request, accepted message and upload is kept for a test to read.
   * 'counts': none is kept, only `counts` (a long benchmark would otherwise hold every body);
   * a refusal rule is then told 1 for every send's place among its number's.
   */
  keep?: 'all' | 'counts';
  /** Told of each accepted message, after its answer is decided. */
  onAccepted?: (sent: AcceptedMessage) => void;
  /** A GET of this path, without a token, answers `counts` (and `extra`) as JSON. */
  stats?: { path: string; extra?: () => Record<string, number> };
}

export interface AcceptedMessage {
  body: SentBody;
  id: string;
}

/** The Graph error a test makes the fake answer; HTTP status by Meta's table unless given. */
export interface FakeRefusal {
  code: number;
  title?: string;
  status?: number;
}

/** Decides the refusal of a send, by its body and how many sends to its number came before. */
export type RefusalRule = (body: SentBody, nthToNumber: number) => FakeRefusal | null;

export type SentBody = Record<string, unknown> & {
  to: string;
  type: string;
  biz_opaque_callback_data?: string;
};

export interface SeenUpload {
  messagingProduct: string | null;
  type: string | null;
  fileName: string | null;
  fileType: string | null;
  size: number;
}

/** Meta's HTTP status for a Graph error code (the Cloud API error codes table). */
function statusOf(code: number): number {
  if (code === 0 || code === 190) return 401;
  if (code === 10 || code === 368 || code === 131031 || (code >= 200 && code <= 299)) return 403;
  if (code === 131000) return 500;
  if (code === 131016 || code === 133004) return 503;
  return 400;
}

export class WhatsAppFake extends ProviderFake {
  /** Accepted message bodies, in order, with the id each was given. */
  readonly messages: AcceptedMessage[] = [];
  readonly uploads: SeenUpload[] = [];
  /** What was answered, kept whatever `keep` says. */
  readonly counts = { accepted: 0, refused: 0, uploads: 0 };
  refuse: RefusalRule = () => null;
  private readonly perNumber = new Map<string, number>();
  private readonly keepAll: boolean;

  private constructor(private readonly o: WhatsAppFakeOptions) {
    super();
    this.keepAll = (o.keep ?? 'all') === 'all';
  }

  static start(o: WhatsAppFakeOptions): Promise<WhatsAppFake> {
    const fake = new WhatsAppFake(o);
    return fake.listen({ port: o.port, record: fake.keepAll });
  }

  protected async handle(req: SeenRequest): Promise<FakeAnswer> {
    if (this.o.stats && req.method === 'GET' && req.url === this.o.stats.path) {
      return json(200, { ...this.counts, ...this.o.stats.extra?.() });
    }
    if (req.headers.authorization !== `Bearer ${this.o.accessToken}`) {
      return graphError({ code: 190, title: 'Invalid OAuth access token' }, 'OAuthException');
    }
    const root = `/${this.o.apiVersion}/${this.o.phoneNumberId}`;
    if (req.method === 'POST' && req.url === `${root}/messages`) return this.message(req);
    if (req.method === 'POST' && req.url === `${root}/media`) return this.upload(req);
    return graphError({ code: 100, title: 'Unsupported post request', status: 400 });
  }

  private message(req: SeenRequest): FakeAnswer {
    let body: SentBody;
    try {
      body = JSON.parse(req.body.toString('utf8')) as SentBody;
    } catch {
      return graphError({ code: 100, title: 'Invalid parameter' });
    }
    if (body.messaging_product !== 'whatsapp' || typeof body.to !== 'string' || !body.type) {
      return graphError({ code: 100, title: 'Invalid parameter' });
    }
    let nth = 1;
    if (this.keepAll) {
      nth = (this.perNumber.get(body.to) ?? 0) + 1;
      this.perNumber.set(body.to, nth);
    }
    const refusal = this.refuse(body, nth);
    if (refusal) {
      this.counts.refused += 1;
      return graphError(refusal);
    }
    const id = `wamid.${randomBytes(18).toString('base64url')}`;
    this.counts.accepted += 1;
    if (this.keepAll) this.messages.push({ body, id });
    this.o.onAccepted?.({ body, id });
    return json(200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: body.to, wa_id: body.to }],
      messages: [{ id }],
    });
  }

  private async upload(req: SeenRequest): Promise<FakeAnswer> {
    const type = req.headers['content-type'];
    if (typeof type !== 'string' || !type.startsWith('multipart/form-data')) {
      return graphError({ code: 100, title: 'Invalid parameter' });
    }
    const form = await new Response(req.body, { headers: { 'content-type': type } }).formData();
    const file = form.get('file');
    const text = (k: string) => {
      const v = form.get(k);
      return typeof v === 'string' ? v : null;
    };
    if (!(file instanceof Blob) || text('messaging_product') !== 'whatsapp') {
      return graphError({ code: 100, title: 'Invalid parameter' });
    }
    this.counts.uploads += 1;
    if (this.keepAll) {
      this.uploads.push({
        messagingProduct: text('messaging_product'),
        type: text('type'),
        fileName: file instanceof File ? file.name : null,
        fileType: file.type,
        size: file.size,
      });
    }
    const n = this.keepAll ? this.uploads.length : this.counts.uploads;
    return json(200, { id: String(1_000_000_000_000 + n) });
  }

  /** Posts `statuses` to `url` as Meta does, signed with `secret` (the app secret by default). */
  postStatuses(url: string, statuses: Record<string, unknown>[], secret = this.o.appSecret) {
    return this.post(url, { statuses }, secret);
  }

  /** Posts inbound `messages` to `url`, as people's replies arrive. */
  postInbound(url: string, messages: Record<string, unknown>[]) {
    return this.post(url, { messages, contacts: [] }, this.o.appSecret);
  }

  /** The webhook envelope of one change of the `messages` field. */
  envelope(value: Record<string, unknown>): string {
    return JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: {
                  display_phone_number: this.o.displayPhoneNumber ?? '15550783881',
                  phone_number_id: this.o.phoneNumberId,
                },
                ...value,
              },
            },
          ],
        },
      ],
    });
  }

  private post(url: string, value: Record<string, unknown>, secret: string) {
    const body = this.envelope(value);
    return postCallback(url, body, {
      'content-type': 'application/json',
      'x-hub-signature-256': whatsAppSignature(secret, body),
    });
  }
}

/** A status of one accepted message, as Meta reports it. */
export function waStatus(
  sent: AcceptedMessage,
  status: 'sent' | 'delivered' | 'read' | 'failed',
  at = new Date(),
  error?: { code: number; title: string },
): Record<string, unknown> {
  return {
    id: sent.id,
    status,
    timestamp: String(Math.floor(at.getTime() / 1000)),
    recipient_id: sent.body.to,
    ...(sent.body.biz_opaque_callback_data
      ? { biz_opaque_callback_data: sent.body.biz_opaque_callback_data }
      : {}),
    ...(error
      ? {
          errors: [
            {
              code: error.code,
              title: error.title,
              message: error.title,
              error_data: { details: error.title },
            },
          ],
        }
      : {}),
  };
}

function graphError(r: FakeRefusal, type = 'OAuthException'): FakeAnswer {
  const title = r.title ?? 'Error';
  return json(r.status ?? statusOf(r.code), {
    error: {
      message: `(#${r.code}) ${title}`,
      type,
      code: r.code,
      error_data: { messaging_product: 'whatsapp', details: title },
      fbtrace_id: randomBytes(9).toString('base64url'),
    },
  });
}

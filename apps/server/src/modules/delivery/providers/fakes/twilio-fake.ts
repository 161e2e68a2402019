import { createHmac, randomBytes } from 'node:crypto';
import {
  ProviderFake,
  json,
  postCallback,
  type FakeAnswer,
  type SeenRequest,
} from './fake-http.js';

/**
 * A stand-in for Twilio's Messages API (tests only), written from Twilio's API reference:
 * `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, form-encoded, HTTP Basic auth with
 * the Account SID and Auth Token; it answers 201 with the Message resource (`sid` "SM..."), or
 * Twilio's error JSON `{ code, message, more_info, status }`. It posts status callbacks and
 * inbound messages the way Twilio does, signed with `X-Twilio-Signature` (its own HMAC-SHA1 of
 * the URL and the sorted parameters, kept apart from the adapter's so the test is not circular).
 */

export interface TwilioFakeOptions {
  accountSid: string;
  authToken: string;
}

export interface TwilioRefusal {
  code: number;
  message: string;
  status: number;
}

export class TwilioFake extends ProviderFake {
  readonly messages: { fields: Record<string, string>; sid: string }[] = [];
  refuse: (fields: Record<string, string>) => TwilioRefusal | null = () => null;

  private constructor(private readonly o: TwilioFakeOptions) {
    super();
  }

  static start(o: TwilioFakeOptions): Promise<TwilioFake> {
    return new TwilioFake(o).listen();
  }

  protected handle(req: SeenRequest): FakeAnswer {
    const path = `/2010-04-01/Accounts/${this.o.accountSid}/Messages.json`;
    const basic = Buffer.from(`${this.o.accountSid}:${this.o.authToken}`).toString('base64');
    if (req.headers.authorization !== `Basic ${basic}`) {
      return refusal({ code: 20003, message: 'Authenticate', status: 401 });
    }
    if (req.method !== 'POST' || req.url !== path) {
      return refusal({ code: 20404, message: 'The requested resource was not found', status: 404 });
    }
    const fields = Object.fromEntries(new URLSearchParams(req.body.toString('utf8')));
    if (!fields.To) {
      return refusal({ code: 21604, message: "A 'To' phone number is required.", status: 400 });
    }
    if (!fields.From) {
      return refusal({ code: 21603, message: "A 'From' phone number is required.", status: 400 });
    }
    if (!fields.Body) {
      return refusal({ code: 21602, message: 'Message body is required.', status: 400 });
    }
    const refused = this.refuse(fields);
    if (refused) return refusal(refused);
    const sid = `SM${randomBytes(16).toString('hex')}`;
    this.messages.push({ fields, sid });
    return json(201, {
      account_sid: this.o.accountSid,
      api_version: '2010-04-01',
      body: fields.Body,
      date_created: new Date().toUTCString(),
      direction: 'outbound-api',
      error_code: null,
      error_message: null,
      from: fields.From,
      num_segments: '1',
      sid,
      status: 'queued',
      to: fields.To,
      uri: `/2010-04-01/Accounts/${this.o.accountSid}/Messages/${sid}.json`,
    });
  }

  /** Twilio's signature of a request to `url` with `params`. */
  sign(url: string, params: Record<string, string>, token = this.o.authToken): string {
    const data = Object.keys(params)
      .sort()
      .reduce((acc, k) => acc + k + params[k], url);
    return createHmac('sha1', token).update(data, 'utf8').digest('base64');
  }

  /** Posts `params` to `url` as Twilio's callbacks come, signed (or with `signature` given). */
  post(url: string, params: Record<string, string>, signature = this.sign(url, params)) {
    return postCallback(url, new URLSearchParams(params).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': signature,
    });
  }

  /** A status callback's parameters for one accepted message. */
  statusParams(sid: string, status: string, errorCode?: number): Record<string, string> {
    const sent = this.messages.find((m) => m.sid === sid);
    return {
      AccountSid: this.o.accountSid,
      ApiVersion: '2010-04-01',
      From: sent?.fields.From ?? '',
      MessageSid: sid,
      MessageStatus: status,
      SmsSid: sid,
      SmsStatus: status,
      To: sent?.fields.To ?? '',
      ...(errorCode === undefined ? {} : { ErrorCode: String(errorCode) }),
    };
  }
}

function refusal(r: TwilioRefusal): FakeAnswer {
  return json(r.status, {
    code: r.code,
    message: r.message,
    more_info: `https://www.twilio.com/docs/errors/${r.code}`,
    status: r.status,
  });
}

import type { ErrorClass } from '@herald/contract';
import type { InboundMessage, ProviderError, StatusEvent } from './provider.js';
import { field, type SmsPreset } from './sms-http.js';

/**
 * Jasmin's HTTP API (its "HTTP API" documentation): `POST /send`, form-encoded, with
 * `username`, `password`, `to`, `from`, `content` (or `hex-content` for UCS-2), `coding`, and a
 * delivery receipt asked for at both levels (`dlr=yes`, `dlr-url`, `dlr-level=3`,
 * `dlr-method=POST`). It answers `Success "<id>"` or `Error "<reason>"` with its HTTP status.
 * Receipts post `id`, `message_status`, `level` (1: the SMSC took it or refused, 2: the handset's
 * receipt) and `err`; MO messages post `from`, `to`, `content`. Both must be answered with
 * exactly `ACK/Jasmin`, or Jasmin sends them again. Jasmin signs nothing: its callback URL
 * carries the token.
 */

/** GSM 03.38's default alphabet (and its extension table): text that fits coding 0. */
const GSM =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà' +
  '^{}\\[~]|€\f';
const GSM_SET = new Set(GSM);
const isGsm = (text: string) => [...text].every((ch) => GSM_SET.has(ch));

/** UTF-16 big-endian hex, as Jasmin's `hex-content` with coding 8 (UCS-2) takes it. */
function ucs2Hex(text: string): string {
  const le = Buffer.from(text, 'utf16le');
  for (let i = 0; i + 1 < le.length; i += 2) {
    const b = le[i] as number;
    le[i] = le[i + 1] as number;
    le[i + 1] = b;
  }
  return le.toString('hex');
}

const ANSWER = /^(Success|Error) "(.*)"\s*$/s;

/** Level 2 receipt states (SMPP's `stat`): which end the message, and how. */
const RECEIPT: Record<string, StatusEvent['state']> = {
  DELIVRD: 'delivered',
  ACCEPTD: 'sent',
  EXPIRED: 'failed',
  DELETED: 'failed',
  UNDELIV: 'failed',
  REJECTD: 'failed',
  UNKNOWN: 'failed',
};

/** `YYMMDDhhmm` (UTC, as the SMSC writes it) as a time; null when absent or malformed. */
function receiptTime(v: string | undefined): Date | null {
  const m = v?.match(/^(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)/);
  if (!m) return null;
  const [, yy, mo, dd, hh, mi] = m.map(Number) as number[];
  return new Date(Date.UTC(2000 + (yy as number), (mo as number) - 1, dd, hh, mi));
}

export const JASMIN_PRESET: SmsPreset = {
  name: 'jasmin',
  signs: false,
  request(m, s, c) {
    const gsm = isGsm(m.message);
    const form = new URLSearchParams({
      username: c.username,
      password: c.password,
      to: m.to,
      from: s.from,
      coding: gsm ? '0' : '8',
      ...(gsm ? { content: m.message } : { 'hex-content': ucs2Hex(m.message) }),
      dlr: 'yes',
      'dlr-url': s.callbackUrl,
      'dlr-level': '3',
      'dlr-method': 'POST',
    });
    return { url: `${s.baseUrl.replace(/\/+$/, '')}/send`, form, headers: {} };
  },
  answer(status, text) {
    const m = ANSWER.exec(text.trim());
    if (status === 200 && m?.[1] === 'Success' && m[2]) return { id: m[2] };
    return {
      error: { code: String(status), text: m?.[2] ?? (text.slice(0, 200) || `HTTP ${status}`) },
    };
  },
  classify: classifyJasmin,
  verify: () => false,
  statuses(f) {
    const id = field(f, 'id');
    const status = field(f, 'message_status');
    const level = field(f, 'level');
    // An MO message (it has `from` and `content`, no status) is not a receipt.
    if (!id || !status || !level) return [];
    const at = receiptTime(field(f, 'donedate')) ?? new Date();
    if (level === '1') {
      // The SMSC's answer to the submit: ESME_ROK took it; any other ESME_* refused it.
      if (status === 'ESME_ROK')
        return [{ reference: null, providerMessageId: id, state: 'sent', at }];
      return [
        {
          reference: null,
          providerMessageId: id,
          state: 'failed',
          at,
          error: { code: status, text: status },
        },
      ];
    }
    const state = RECEIPT[status];
    if (!state) return [];
    const err = field(f, 'err');
    return [
      {
        reference: null,
        providerMessageId: id,
        state,
        at,
        ...(state === 'failed'
          ? {
              error: {
                code: status,
                text: err && err !== '000' ? `${status} (err ${err})` : status,
              },
            }
          : {}),
      },
    ];
  },
  inbound(f): InboundMessage[] {
    const from = field(f, 'from');
    const content = field(f, 'content');
    if (from === undefined || content === undefined || field(f, 'message_status')) return [];
    return [
      { from: from.replace(/\D/g, ''), to: field(f, 'to') ?? null, text: content, at: new Date() },
    ];
  },
  reply: { contentType: 'text/plain; charset=utf-8', body: 'ACK/Jasmin' },
};

/**
 * Jasmin's refusals by HTTP status (its HTTP API's response table): 403 "User throughput
 * exceeded" is the user's rate; another 403 (authentication, charging) fails every message
 * alike, so the campaign pauses for the Admin; 400 (a bad request) and 412 (no route to this
 * number) fail the recipient; 5xx is retried.
 */
export function classifyJasmin(error: ProviderError): ErrorClass {
  const status = Number(error.code);
  if (status === 403 && /throughput/i.test(error.text)) return 'throttled';
  if (status === 403) return 'pause_campaign';
  if (status === 400 || status === 412) return 'permanent';
  if (status >= 500 && status < 600) return 'retryable';
  // Receipt codes of the callback path (UNDELIV, REJECTD, ESME_*): this message is lost.
  if (Number.isNaN(status)) return 'permanent';
  return 'retryable';
}

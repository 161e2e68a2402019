import { describe, expect, it } from 'vitest';
import {
  parseWhatsAppInbound,
  parseWhatsAppStatuses,
  verifyWhatsAppSignature,
  verifyWhatsAppSubscription,
  whatsAppSignature,
} from './whatsapp-webhook.js';

/** WhatsApp webhooks on their own: signature, subscription check, Meta's envelope read. */

const SECRET = 'app-secret';
const REF = '6f1c2a9e-3b4d-4c5e-8f70-112233445566:919876500001';

function envelope(value: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

describe('X-Hub-Signature-256', () => {
  const body = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');
  it('accepts the HMAC-SHA256 of the raw body with the app secret', () => {
    const headers = { 'x-hub-signature-256': whatsAppSignature(SECRET, body) };
    expect(verifyWhatsAppSignature(SECRET, headers, body)).toBe(true);
  });
  it('refuses a missing, wrong, truncated or other-secret signature, or another body', () => {
    const good = whatsAppSignature(SECRET, body);
    for (const given of [
      undefined,
      '',
      'sha256=',
      good.slice(0, -2),
      whatsAppSignature('x', body),
    ]) {
      expect(verifyWhatsAppSignature(SECRET, { 'x-hub-signature-256': given }, body)).toBe(false);
    }
    const other = Buffer.from(`${body.toString()} `);
    expect(verifyWhatsAppSignature(SECRET, { 'x-hub-signature-256': good }, other)).toBe(false);
  });
});

describe('the subscription check', () => {
  it('echoes hub.challenge for subscribe with our token, else refuses', () => {
    const q = { 'hub.mode': 'subscribe', 'hub.verify_token': 'tok', 'hub.challenge': '42' };
    expect(verifyWhatsAppSubscription('tok', q)).toBe('42');
    expect(verifyWhatsAppSubscription('tok', { ...q, 'hub.verify_token': 'tik' })).toBeNull();
    expect(verifyWhatsAppSubscription('tok', { ...q, 'hub.mode': 'unsubscribe' })).toBeNull();
    expect(verifyWhatsAppSubscription('tok', { 'hub.mode': 'subscribe' })).toBeNull();
  });
});

describe('statuses[]', () => {
  it('reads each state by wamid with the reference carried back, and a failure with the table title', () => {
    const events = parseWhatsAppStatuses(
      envelope({
        statuses: [
          {
            id: 'wamid.A',
            status: 'read',
            timestamp: '1764658800',
            recipient_id: '919876500001',
            biz_opaque_callback_data: REF,
          },
          {
            id: 'wamid.B',
            status: 'deleted',
            timestamp: '1764658800',
            recipient_id: '919876500001',
          },
          {
            id: 'wamid.C',
            status: 'failed',
            timestamp: '1764658801',
            recipient_id: '919876500001',
            errors: [
              { code: 131047, title: 'Re-engagement message', message: 'Re-engagement message' },
            ],
          },
        ],
      }),
    );
    expect(events).toEqual([
      { reference: REF, providerMessageId: 'wamid.A', state: 'read', at: new Date(1764658800_000) },
      {
        reference: null,
        providerMessageId: 'wamid.C',
        state: 'failed',
        at: new Date(1764658801_000),
        error: { code: '131047', text: 'Re-engagement message' },
      },
    ]);
  });

  it("refuses a body that is not Meta's envelope", () => {
    expect(() => parseWhatsAppStatuses({ events: [] })).toThrow();
  });
});

describe('messages[]', () => {
  it('reads text and quick-reply buttons people send, with the number they wrote to', () => {
    const inbound = parseWhatsAppInbound(
      envelope({
        contacts: [{ profile: { name: 'Asha' }, wa_id: '919876500001' }],
        messages: [
          {
            from: '919876500001',
            id: 'wamid.in1',
            timestamp: '1764658800',
            type: 'text',
            text: { body: 'STOP' },
          },
          {
            from: '919876500002',
            id: 'wamid.in2',
            timestamp: '1764658801',
            type: 'button',
            button: { text: 'Stop promotions', payload: 'x' },
          },
          { from: '919876500003', id: 'wamid.in3', timestamp: '1764658802', type: 'image' },
        ],
      }),
    );
    expect(inbound).toEqual([
      { from: '919876500001', to: '106540352242922', text: 'STOP', at: new Date(1764658800_000) },
      {
        from: '919876500002',
        to: '106540352242922',
        text: 'Stop promotions',
        at: new Date(1764658801_000),
      },
    ]);
  });
});

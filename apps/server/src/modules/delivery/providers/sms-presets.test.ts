import { describe, expect, it } from 'vitest';
import { formFields, SmsHttpAdapter } from './sms-http.js';
import { JASMIN_PRESET } from './sms-jasmin.js';
import { TWILIO_PRESET, twilioSignature, verifyTwilioSignature } from './sms-twilio.js';

/**
 * The presets' callback readings on their own: Twilio's signature algorithm on Twilio's
 * published example (the one twilio-node's RequestValidator is checked against), and the
 * inbound messages (MO) each gateway posts, for the opt-out keywords.
 */

const settings = { baseUrl: 'http://127.0.0.1:1', from: 'HERALD', callbackUrl: 'http://x/cb' };
const jasmin = new SmsHttpAdapter(JASMIN_PRESET, settings, {
  username: 'u',
  password: 'p',
  callbackToken: 'jasmin-callback-token-0123456789abcdef',
});
const twilio = new SmsHttpAdapter(TWILIO_PRESET, settings, { username: 'AC1', password: 't' });

describe('Twilio signatures', () => {
  it("computes Twilio's published example signature, and refuses a tampered one", () => {
    const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
    const params = formFields(
      'CallSid=CA1234567890ABCDE&Caller=%2B14158675309&Digits=1234&From=%2B14158675309&To=%2B18005551212',
    );
    expect(twilioSignature('12345', url, params)).toBe('RSOYDt4T1cUTdK1PDd93/VVr8B8=');
    expect(verifyTwilioSignature('12345', url, params, 'RSOYDt4T1cUTdK1PDd93/VVr8B8=')).toBe(true);
    // twilio-node also accepts the URL signed with the scheme's port written out.
    expect(
      verifyTwilioSignature(
        '12345',
        url,
        params,
        twilioSignature('12345', 'https://mycompany.com:443/myapp.php?foo=1&bar=2', params),
      ),
    ).toBe(true);
    params.set('Digits', ['9999']);
    expect(verifyTwilioSignature('12345', url, params, 'RSOYDt4T1cUTdK1PDd93/VVr8B8=')).toBe(false);
    expect(verifyTwilioSignature('12345', url, params, undefined)).toBe(false);
  });
});

describe('inbound messages', () => {
  it('reads MO messages as inbound text', () => {
    const body = formFields('id=1&from=%2B919811100003&to=HERALD&origin-connector=c&content=STOP');
    expect(jasmin.parseInbound(body)).toMatchObject([
      { from: '919811100003', to: 'HERALD', text: 'STOP' },
    ]);
    expect(jasmin.parseStatusCallback(body)).toEqual([]);
  });
  it('reads inbound messages', () => {
    const body = formFields(
      'MessageSid=SM1&From=%2B919822200001&To=%2B15005550006&Body=STOP&SmsStatus=received',
    );
    expect(twilio.parseInbound(body)).toMatchObject([
      { from: '919822200001', to: '+15005550006', text: 'STOP' },
    ]);
    expect(twilio.parseStatusCallback(body)).toEqual([]);
  });

  it('a Jasmin callback is refused unless its URL carries the token', () => {
    const raw = Buffer.from('id=1&message_status=DELIVRD&level=2');
    expect(jasmin.verifyCallback({}, raw, { url: '/api/delivery/webhooks/jasmin/wrong' })).toBe(
      false,
    );
    expect(jasmin.verifyCallback({}, raw)).toBe(false);
    expect(
      jasmin.verifyCallback({}, raw, {
        url: '/api/delivery/webhooks/jasmin/jasmin-callback-token-0123456789abcdef',
      }),
    ).toBe(true);
  });
});

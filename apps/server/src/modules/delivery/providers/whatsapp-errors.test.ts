import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NORMAL } from '../../campaigns/campaign-actions.test-fixtures.js';
import type { MediaIdCache } from './media-cache.js';
import { ProviderSendError, type OutboundMessage, type ProviderError } from './provider.js';
import { WhatsAppCloudAdapter } from './whatsapp-cloud.js';
import { WHATSAPP_ERRORS } from './whatsapp-errors.js';
import { WhatsAppFake } from './fakes/whatsapp-fake.js';

/**
 * The WhatsApp error table, code by code, as the fake Graph API refuses a send with Meta's
 * error JSON (the callback path reads the same table: whatsapp-flow.test.ts).
 */

const SETTINGS = { apiVersion: 'v21.0', phoneNumberId: '106540352242922' };
const CREDS = { accessToken: 'EAAtest', appSecret: 'app-secret', verifyToken: 'verify-me' };
/** Text messages only: nothing is uploaded. */
const NO_MEDIA: MediaIdCache = {
  idFor: () => Promise.reject(new Error('no media in these tests')),
};

let fake: WhatsAppFake;
beforeAll(async () => {
  fake = await WhatsAppFake.start({ ...SETTINGS, ...CREDS });
});
afterAll(() => fake?.close());
beforeEach(() => {
  fake.refuse = () => null;
});

const adapter = (creds = CREDS) =>
  new WhatsAppCloudAdapter({ baseUrl: fake.url, ...SETTINGS }, creds, {
    files: { open: () => Promise.resolve(null) },
    media: NO_MEDIA,
  });

const message = (): OutboundMessage => ({
  reference: '6f1c2a9e-3b4d-4c5e-8f70-112233445566:919876500001',
  campaignId: '6f1c2a9e-3b4d-4c5e-8f70-112233445566',
  to: '919876500001',
  creditType: NORMAL,
  message: 'Hello there',
  media: [],
  cta: null,
});

describe('the error table, send path', () => {
  const expected: [number, string][] = [
    [130429, 'throttled'],
    [131056, 'recipient_throttled'],
    [131048, 'pause_campaign'],
    [132015, 'pause_campaign'],
    [132016, 'pause_campaign'],
    [131047, 'permanent'],
    [131026, 'permanent'],
    [131049, 'permanent'],
    [132000, 'permanent'],
    [132001, 'permanent'],
    [132005, 'permanent'],
    [132007, 'permanent'],
    [132012, 'permanent'],
    [131050, 'opted_out'],
    [131000, 'retryable'],
    [999999, 'retryable'],
  ];
  for (const [code, kind] of expected) {
    it(`${code} is ${kind}, with Meta's title as the reason`, async () => {
      const a = adapter();
      fake.refuse = () => ({ code, title: WHATSAPP_ERRORS[code]?.title ?? 'Something new' });
      const err = await a.send(message()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderSendError);
      const e: ProviderError = (err as ProviderSendError).error;
      expect(e.code).toBe(String(code));
      expect(e.text).toBe(WHATSAPP_ERRORS[code]?.title ?? 'Something new');
      expect(a.classifyError(e)).toBe(kind);
    });
  }

  it('a wrong token is refused with Graph error 190', async () => {
    const a = adapter({ ...CREDS, accessToken: 'wrong' });
    const err = (await a.send(message()).catch((e: unknown) => e)) as ProviderSendError;
    expect(err.error.code).toBe('190');
    expect(a.classifyError(err.error)).toBe('pause_campaign');
  });
});

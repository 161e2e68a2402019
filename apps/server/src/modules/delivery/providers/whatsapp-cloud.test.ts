import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness.js';
import { campaignFileKey } from '../../campaigns/index.js';
import { createCampaign, NORMAL } from '../../campaigns/campaign-actions.test-fixtures.js';
import { file, fund, MP3, MP4, PDF, png } from '../../campaigns/campaigns.test-fixtures.js';
import { PgMediaIdCache } from './media-cache.js';
import { ProviderSendError, type OutboundMessage } from './provider.js';
import { WhatsAppCloudAdapter } from './whatsapp-cloud.js';
import { WhatsAppFake } from './fakes/whatsapp-fake.js';

/**
 * The WhatsApp Cloud API adapter against the fake Graph API: the JSON each message family
 * reaches it with, media uploaded once per campaign and sender (1,000 recipients, two
 * instances, a media id past Meta's retention), (the error table: whatsapp-errors.test.ts).
 */

const SETTINGS = { apiVersion: 'v21.0', phoneNumberId: '106540352242922' };
const CREDS = { accessToken: 'EAAtest', appSecret: 'app-secret', verifyToken: 'verify-me' };

let t: TestApp;
let fake: WhatsAppFake;
let campaignId: string;
let files: OutboundMessage['media'];

beforeAll(async () => {
  t = await createTestApp();
  fake = await WhatsAppFake.start({ ...SETTINGS, ...CREDS });
  const admin = await t.adminToken();
  const user = await t.createUser(admin, { role: 'User' });
  await fund(t, admin, user.user.email, NORMAL, 10);
  campaignId = await createCampaign(t, user.token, ['919876500001'], {}, [
    file('images', png(10, 10), 'a.png'),
    file('pdf', PDF, 'a.pdf'),
    file('video', MP4, 'a.mp4'),
    file('audio', MP3, 'a.mp3'),
  ]);
  const rows = await t.db
    .selectFrom('campaign_files')
    .select(['kind', 'stored_name', 'mime'])
    .where('campaign_id', '=', campaignId)
    .orderBy('kind')
    .execute();
  files = rows.map((r) => ({ kind: r.kind, key: campaignFileKey(r.stored_name), mime: r.mime }));
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});
beforeEach(async () => {
  fake.messages.length = 0;
  fake.uploads.length = 0;
  fake.refuse = () => null;
  await t.db.deleteFrom('provider_media').execute();
});

function adapter(cache = new PgMediaIdCache(t.db)) {
  return new WhatsAppCloudAdapter({ baseUrl: fake.url, ...SETTINGS }, CREDS, {
    files: t.app.ctx.files,
    media: cache,
  });
}

const fileOf = (kind: string) => files.find((f) => f.kind === kind)!;

function message(over: Partial<OutboundMessage> = {}): OutboundMessage {
  return {
    reference: `${campaignId}:919876500001`,
    campaignId,
    to: '919876500001',
    creditType: NORMAL,
    message: 'Hello there',
    media: [],
    cta: null,
    ...over,
  };
}

describe('each message family reaches the Cloud API as documented', () => {
  it('text, with preview_url only when it has a link', async () => {
    const a = adapter();
    const sent = await a.send(message());
    await a.send(message({ message: 'See https://example.com/offer' }));
    expect(sent.providerMessageId).toBe(fake.messages[0]!.id);
    expect(fake.messages.map((m) => m.body)).toEqual([
      {
        messaging_product: 'whatsapp',
        to: '919876500001',
        biz_opaque_callback_data: `${campaignId}:919876500001`,
        type: 'text',
        text: { body: 'Hello there' },
      },
      {
        messaging_product: 'whatsapp',
        to: '919876500001',
        biz_opaque_callback_data: `${campaignId}:919876500001`,
        type: 'text',
        text: { preview_url: true, body: 'See https://example.com/offer' },
      },
    ]);
    const req = fake.requests.find((r) => r.url.endsWith('/messages'))!;
    expect(req.url).toBe(`/v21.0/${SETTINGS.phoneNumberId}/messages`);
    expect(req.headers.authorization).toBe('Bearer EAAtest');
  });

  it('image, video and document by the uploaded id with a caption; audio without one', async () => {
    const a = adapter();
    await a.send(message({ media: [fileOf('image')] }));
    await a.send(message({ media: [fileOf('video')] }));
    await a.send(message({ media: [fileOf('pdf')] }));
    await a.send(message({ media: [fileOf('audio')] }));
    expect(fake.uploads.map((u) => [u.messagingProduct, u.type, u.fileType])).toEqual([
      ['whatsapp', 'image/png', 'image/png'],
      ['whatsapp', 'video/mp4', 'video/mp4'],
      ['whatsapp', 'application/pdf', 'application/pdf'],
      ['whatsapp', 'audio/mpeg', 'audio/mpeg'],
    ]);
    const [img, vid, pdf, text, audio] = fake.messages.map((m) => m.body);
    const ref = { biz_opaque_callback_data: `${campaignId}:919876500001` };
    expect(img).toEqual({
      messaging_product: 'whatsapp',
      to: '919876500001',
      ...ref,
      type: 'image',
      image: { id: '1000000000001', caption: 'Hello there' },
    });
    expect(vid).toMatchObject({
      type: 'video',
      video: { id: '1000000000002', caption: 'Hello there' },
    });
    expect(pdf).toMatchObject({
      type: 'document',
      document: {
        id: '1000000000003',
        filename: fileOf('pdf').key.split('/').pop(),
        caption: 'Hello there',
      },
    });
    // Audio takes no caption: the text is the tracked message, the audio follows it.
    expect(text).toMatchObject({ ...ref, type: 'text', text: { body: 'Hello there' } });
    expect(audio).toEqual({
      messaging_product: 'whatsapp',
      to: '919876500001',
      type: 'audio',
      audio: { id: '1000000000004' },
    });
  });

  it('a CTA campaign as interactive cta_url with the creative as header', async () => {
    const creative = { ...fileOf('image'), kind: 'singleCreative' };
    await adapter().send(
      message({
        media: [creative],
        cta: {
          call: { number: '919800000000', text: 'Call us' },
          url: { url: 'https://example.com/offer', text: 'Open offer' },
        },
      }),
    );
    expect(fake.messages[0]!.body).toEqual({
      messaging_product: 'whatsapp',
      to: '919876500001',
      biz_opaque_callback_data: `${campaignId}:919876500001`,
      type: 'interactive',
      interactive: {
        type: 'cta_url',
        header: { type: 'image', image: { id: '1000000000001' } },
        body: { text: 'Hello there' },
        action: {
          name: 'cta_url',
          parameters: { display_text: 'Open offer', url: 'https://example.com/offer' },
        },
      },
    });
  });

  it('refuses, before sending, a cta_url past Meta limits and a call button without a template', async () => {
    const a = adapter();
    const url = { url: 'https://example.com', text: 'x'.repeat(21) };
    await expect(a.send(message({ cta: { url } }))).rejects.toThrow(/20 characters/);
    await expect(
      a.send(message({ message: 'y'.repeat(1025), cta: { url: { ...url, text: 'Open' } } })),
    ).rejects.toThrow(/1,024/);
    const call = await a
      .send(message({ cta: { call: { number: '1', text: 'Call' } } }))
      .catch((e: unknown) => e);
    expect(call).toBeInstanceOf(ProviderSendError);
    expect(a.classifyError((call as ProviderSendError).error)).toBe('permanent');
    expect(fake.messages).toHaveLength(0);
  });

  it('a template with its body variables', async () => {
    await adapter().send(
      message({
        template: { name: 'diwali_offer', language: 'en_US', bodyParameters: ['Asha', '20%'] },
      }),
    );
    expect(fake.messages[0]!.body).toEqual({
      messaging_product: 'whatsapp',
      to: '919876500001',
      biz_opaque_callback_data: `${campaignId}:919876500001`,
      type: 'template',
      template: {
        name: 'diwali_offer',
        language: { code: 'en_US' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Asha' },
              { type: 'text', text: '20%' },
            ],
          },
        ],
      },
    });
  });

  it("a domestic number gets the sender's country code", async () => {
    const a = new WhatsAppCloudAdapter(
      { baseUrl: fake.url, ...SETTINGS, domesticCountryCode: '91' },
      CREDS,
      { files: t.app.ctx.files, media: new PgMediaIdCache(t.db) },
    );
    await a.send(message({ to: '9876500001' }));
    expect(fake.messages[0]!.body.to).toBe('919876500001');
  });

  it('a DP type sends no per-message picture', async () => {
    const dp = { ...fileOf('image'), kind: 'dp' };
    await adapter().send(message({ media: [dp] }));
    expect(fake.uploads).toHaveLength(0);
    expect(fake.messages[0]!.body).toMatchObject({ type: 'text' });
  });
});

describe('media uploaded once per campaign and sender', () => {
  it('1,000 recipients, on two instances, upload the image once', async () => {
    const instances = [adapter(), adapter()];
    const image = fileOf('image');
    const to = Array.from({ length: 1000 }, (_, i) => `9198765${String(i).padStart(5, '0')}`);
    for (let i = 0; i < to.length; i += 100) {
      await Promise.all(
        to
          .slice(i, i + 100)
          .map((n, j) =>
            instances[j % 2]!.send(
              message({ to: n, reference: `${campaignId}:${n}`, media: [image] }),
            ),
          ),
      );
    }
    expect(fake.uploads).toHaveLength(1);
    expect(fake.messages).toHaveLength(1000);
    expect(new Set(fake.messages.map((m) => (m.body.image as { id: string }).id))).toEqual(
      new Set(['1000000000001']),
    );
  });

  it('an id older than the retention is uploaded again', async () => {
    const image = fileOf('image');
    await adapter().send(message({ media: [image] }));
    await t.db
      .updateTable('provider_media')
      .set({ uploaded_at: sql<Date>`now() - interval '30 days'` })
      .execute();
    await adapter().send(message({ media: [image] }));
    expect(fake.uploads).toHaveLength(2);
  });
});

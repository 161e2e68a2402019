import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CREDIT_TYPES, type CreateCampaignReply, type CreditType } from '@herald/contract';
import { startDeliveryApp, type DeliveryTestApp } from '../../../test/delivery-harness.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { setStatus } from '../campaigns/campaign-actions.test-fixtures.js';
import {
  MP3,
  MP4,
  PDF,
  file,
  fund,
  png,
  postCampaign,
} from '../campaigns/campaigns.test-fixtures.js';
import type { FilePart } from '../users/test-fixtures.js';
import type { OutboundMessage } from './providers/provider.js';

/**
 * Every campaign family is delivered: each of the eight credit types, with the
 * media and buttons its type takes, is approved, sent to the simulator with its text, media
 * and buttons, and ends Report Generated with every recipient settled.
 */

let t: DeliveryTestApp;
let h: Hierarchy;
const sent: OutboundMessage[] = [];

beforeAll(async () => {
  t = await startDeliveryApp({
    simulator: { ratePerSecond: 1000, failRatio: 0, readRatio: 0, delayMs: 10 },
  });
  h = await buildHierarchy(t);
  for (const type of CREDIT_TYPES) await fund(t, h.admin, h.u1.user.email, type, 10);
  const adapter = t.app.ctx.delivery.adapterFor('simulator');
  // What reaches the provider, whether one by one or in batches.
  const send = adapter.send.bind(adapter);
  vi.spyOn(adapter, 'send').mockImplementation((message, signal) => {
    sent.push(message);
    return send(message, signal);
  });
  const sendBatch = adapter.sendBatch?.bind(adapter);
  if (sendBatch) {
    vi.spyOn(adapter, 'sendBatch').mockImplementation((messages, signal) => {
      sent.push(...messages);
      return sendBatch(messages, signal);
    });
  }
});
afterAll(() => t.close());

const CTA_FIELDS = {
  ctaCall: '9876543210',
  ctaCallText: 'Call us',
  ctaURL: 'https://example.com/offer',
  ctaURLText: 'Open',
};

/** The fields and files a valid campaign of `type` takes. */
function campaignOf(type: CreditType, to: string): [Record<string, string>, FilePart[]] {
  const fields: Record<string, string> = { creditType: type, message: `Hello ${type}`, to };
  const files: FilePart[] = [];
  if (type.includes('international'))
    Object.assign(fields, { countryName: 'Nepal', countryCode: '+977' });
  if (type.includes('DP')) files.push(file('dp', png(200, 200), 'dp.png'));
  if (type.includes('CTA')) {
    Object.assign(fields, CTA_FIELDS);
    files.push(file('singleCreative', png(300, 300), 'creative.png'));
  } else {
    files.push(file('images', png(10, 10), 'a.png'), file('pdf', PDF, 'a.pdf'));
    files.push(file('video', MP4, 'a.mp4'), file('audio', MP3, 'a.mp3'));
  }
  return [fields, files];
}

async function statusOf(id: string) {
  const row = await t.ownerDb
    .selectFrom('campaigns')
    .select(['status', 'report_count', 'report_delivered'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row;
}

describe('each campaign family through the simulator', () => {
  it('is sent with its text, media and buttons and ends Report Generated', async () => {
    const ids = new Map<string, CreditType>();
    for (const [i, type] of CREDIT_TYPES.entries()) {
      const to = [0, 1, 2].map((k) => `9${i}${k}5550123`).join(',');
      const [fields, files] = campaignOf(type, to);
      const res = await postCampaign(t, h.u1.token, fields, files);
      expect(res.statusCode, `${type}: ${res.body}`).toBe(201);
      const id = res.json<CreateCampaignReply>().campaign._id;
      ids.set(id, type);
      await setStatus(t, h.admin, id, 'Approved');
    }

    const deadline = Date.now() + 60_000;
    for (;;) {
      const states = await Promise.all([...ids.keys()].map(statusOf));
      if (states.every((s) => s.status === 'Report Generated')) break;
      if (Date.now() > deadline) throw new Error(`not all delivered: ${JSON.stringify(states)}`);
      await t.runDueJobs();
      await new Promise((r) => setTimeout(r, 100));
    }

    for (const [id, type] of ids) {
      expect(await statusOf(id), type).toMatchObject({ report_count: 3, report_delivered: 3 });
      const messages = sent.filter((m) => m.campaignId === id);
      expect(messages.map((m) => m.to).sort(), type).toHaveLength(3);
      const m = messages[0]!;
      expect(m).toMatchObject({ creditType: type, message: `Hello ${type}` });
      const kinds = m.media.map((f) => f.kind).sort();
      if (type.includes('CTA')) {
        expect(m.cta, type).toEqual({
          call: { number: CTA_FIELDS.ctaCall, text: CTA_FIELDS.ctaCallText },
          url: { url: CTA_FIELDS.ctaURL, text: CTA_FIELDS.ctaURLText },
        });
        expect(kinds, type).toEqual(
          type.includes('DP') ? ['dp', 'singleCreative'] : ['singleCreative'],
        );
      } else {
        expect(m.cta, type).toBeNull();
        const rich = ['audio', 'image', 'pdf', 'video'];
        expect(kinds, type).toEqual(
          type.includes('DP') ? ['audio', 'dp', 'image', 'pdf', 'video'] : rich,
        );
      }
    }
  });
});

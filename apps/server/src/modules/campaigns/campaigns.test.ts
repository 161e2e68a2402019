import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  server as msg,
  type CampaignDetail,
  type CreateCampaignReply,
  type CreditType,
} from '@herald/contract';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { balanceOf, ledgerViolations } from '../credits/credits.test-fixtures.js';
import { buildHierarchy, type Hierarchy } from '../users/test-fixtures.js';
import { MP3, MP4, PDF, file, fund, jpeg, png, postCampaign } from './campaigns.test-fixtures.js';

const NORMAL: CreditType = 'Normal Message - domestic';
const INTL: CreditType = 'Normal Message - international';
const DP: CreditType = 'With DP - domestic';
const CTA: CreditType = 'With CTA - domestic';

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  for (const type of [NORMAL, INTL, DP, CTA]) await fund(t, h.admin, h.u1.user.email, type, 100);
});
afterAll(() => t.close());

const created = (res: { json: <T>() => T }) => res.json<CreateCampaignReply>().campaign;
const plain = (over: Record<string, string> = {}) => ({
  creditType: NORMAL,
  message: 'Hello',
  to: '9876543210',
  ...over,
});

describe('POST /api/campaigns: creation and debit', () => {
  it('normalises and dedupes recipients, debits exactly once, starts Submitted', async () => {
    const before = await balanceOf(t.db, h.u1.user.id, NORMAL);
    const to =
      '9876543210, +91-98765-43210;9876543210\n(555)1234567,12,15551234567,0091.98765.43210';
    const res = await postCampaign(t, h.u1.token, plain({ to }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<CreateCampaignReply>().message).toBe(msg.campaignCreated);
    const c = created(res);
    expect(c).toMatchObject({
      userEmail: h.u1.user.email,
      createdBy: h.u1.user.email,
      status: 'Submitted',
      recipientCount: 5,
      files: [],
    });
    expect(c).not.toHaveProperty('to');
    expect(await balanceOf(t.db, h.u1.user.id, NORMAL)).toBe(before - 5);
    const entries = await t.db
      .selectFrom('credit_transactions')
      .selectAll()
      .where('campaign_id', '=', c._id)
      .execute();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: 'campaign_debit', reason: "Campaign 'Hello'" });
    const detail = await t.request({
      method: 'GET',
      url: `/api/campaigns/${c._id}`,
      token: h.u1.token,
    });
    expect(detail.json<CampaignDetail>().recipients).toEqual([
      '00919876543210',
      '15551234567',
      '5551234567',
      '919876543210',
      '9876543210',
    ]);
    expect(Object.values(await ledgerViolations(t.db)).flat()).toEqual([]);
  });

  it('reads numbers as people paste them and charges what it keeps (docs/product.md, How numbers are read)', async () => {
    const before = await balanceOf(t.db, h.u1.user.id, NORMAL);
    // WhatsApp, a US contact, a leading 0 written apart, two full numbers on one line, and
    // two spaced numbers with nothing between them (one invalid entry).
    const to =
      '+91 98765 43210\n(987) 654-3212\n098765 43210\n9123456780 9123456781\n98765 43210 91234 56780';
    const res = await postCampaign(t, h.u1.token, plain({ to }));
    expect(res.statusCode, res.body).toBe(201);
    const c = created(res);
    expect(c.recipientCount).toBe(5);
    expect(await balanceOf(t.db, h.u1.user.id, NORMAL)).toBe(before - 5);
    const detail = await t.request({
      method: 'GET',
      url: `/api/campaigns/${c._id}`,
      token: h.u1.token,
    });
    expect(detail.json<CampaignDetail>().recipients).toEqual([
      '09876543210',
      '9123456780',
      '9123456781',
      '919876543210',
      '9876543212',
    ]);
  });

  it('needs a message and at least one recipient', async () => {
    const none = await postCampaign(t, h.u1.token, plain({ to: '12, abc' }));
    expect([none.statusCode, none.json<{ message: string }>().message]).toEqual([
      400,
      msg.campaignNoRecipients,
    ]);
    const empty = await postCampaign(t, h.u1.token, plain({ message: '  ' }));
    expect(empty.json<{ message: string }>().message).toBe(msg.campaignMessageRequired);
    const long = await postCampaign(t, h.u1.token, plain({ message: 'x'.repeat(4097) }));
    expect(long.statusCode).toBe(400);
  });

  it('international types need country name and code', async () => {
    const bad = await postCampaign(t, h.u1.token, plain({ creditType: INTL }));
    expect([bad.statusCode, bad.json<{ message: string }>().message]).toEqual([
      400,
      msg.campaignCountryRequired,
    ]);
    const good = await postCampaign(
      t,
      h.u1.token,
      plain({ creditType: INTL, countryName: 'Nepal', countryCode: '+977' }),
    );
    expect(good.statusCode, good.body).toBe(201);
    expect(created(good)).toMatchObject({ countryName: 'Nepal', countryCode: '+977' });
    const domestic = await postCampaign(t, h.u1.token, plain({ countryName: 'Nepal' }));
    expect(domestic.statusCode).toBe(400);
  });

  it('takes a DP of 192–500 px per side (PNG and JPEG), by header', async () => {
    const ok = await postCampaign(t, h.u1.token, plain({ creditType: DP }), [
      file('dp', png(300, 192), 'dp.png'),
    ]);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(created(ok).files).toMatchObject([{ kind: 'dp', name: 'dp.png', mime: 'image/png' }]);
    const okJpeg = await postCampaign(t, h.u1.token, plain({ creditType: DP }), [
      file('dp', jpeg(500, 500), 'dp.jpg'),
    ]);
    expect(okJpeg.statusCode, okJpeg.body).toBe(201);
    for (const bad of [png(191, 300), png(300, 501), jpeg(600, 300), jpeg(100, 100)]) {
      const res = await postCampaign(t, h.u1.token, plain({ creditType: DP }), [file('dp', bad)]);
      expect([res.statusCode, res.json<{ message: string }>().message]).toEqual([
        400,
        msg.campaignDpDimensions,
      ]);
    }
    const notDp = await postCampaign(t, h.u1.token, plain(), [file('dp', png(300, 300))]);
    expect(notDp.json<{ message: string }>().message).toBe(msg.campaignFieldNotAllowed('dp'));
  });

  it('CTA: one single creative and the buttons; no pdf, video or audio', async () => {
    const cta = {
      creditType: CTA,
      ctaCall: '9876543210',
      ctaCallText: 'Call us',
      ctaURL: 'https://example.com/offer',
      ctaURLText: 'Open',
    };
    const ok = await postCampaign(t, h.u1.token, plain(cta), [
      file('singleCreative', MP4, 'a.mp4'),
    ]);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(created(ok)).toMatchObject({
      ctaURL: 'https://example.com/offer',
      ctaCall: '9876543210',
    });
    expect(created(ok).files).toMatchObject([{ kind: 'singleCreative', mime: 'video/mp4' }]);
    for (const f of [
      file('pdf', PDF),
      file('video', MP4),
      file('audio', MP3),
      file('images', png(1, 1)),
    ]) {
      const res = await postCampaign(t, h.u1.token, plain(cta), [f]);
      expect([res.statusCode, res.json<{ message: string }>().message]).toEqual([
        400,
        msg.campaignFieldNotAllowed(f.field),
      ]);
    }
    const badUrl = await postCampaign(
      t,
      h.u1.token,
      plain({ ...cta, ctaURL: 'javascript:alert(1)' }),
    );
    expect(badUrl.json<{ message: string }>().message).toBe(msg.campaignCtaUrlInvalid);
    const badCall = await postCampaign(t, h.u1.token, plain({ ...cta, ctaCall: 'call me' }));
    expect(badCall.json<{ message: string }>().message).toBe(msg.campaignCtaCallInvalid);
    const notCta = await postCampaign(t, h.u1.token, plain({ ctaCall: '12345' }));
    expect(notCta.statusCode).toBe(400);
  });

  it('non-CTA media: images, mp4, pdf and audio by content; wrong bytes refused', async () => {
    const ok = await postCampaign(t, h.u1.token, plain(), [
      file('images', png(10, 10), '../../etc/x.png'),
      file('images', jpeg(10, 10)),
      file('video', MP4),
      file('pdf', PDF),
      file('audio', MP3),
    ]);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(
      created(ok)
        .files.map((f) => f.kind)
        .sort(),
    ).toEqual(['audio', 'image', 'image', 'pdf', 'video'].sort());
    expect(created(ok).files.find((f) => f.name === 'x.png')).toBeDefined();
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    for (const [field, data] of [
      ['images', html],
      ['video', PDF],
      ['pdf', png(5, 5)],
    ] as const) {
      const res = await postCampaign(t, h.u1.token, plain(), [file(field, data, 'x.png')]);
      expect([res.statusCode, res.json<{ message: string }>().message]).toEqual([
        400,
        msg.campaignFileType(field),
      ]);
    }
  });
});

describe('POST /api/campaigns for a blocked owner', () => {
  it('answers 409 and charges nothing', async () => {
    const owner = await t.createUser(h.r1.token, { role: 'User', name: 'Frozen' });
    await fund(t, h.admin, owner.user.email, NORMAL, 5);
    await t.db
      .updateTable('users')
      .set({ status: 'Blocked' })
      .where('id', '=', owner.user.id)
      .execute();
    const res = await postCampaign(t, h.r1.token, plain({ userEmail: owner.user.email }));
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toEqual({ message: msg.creditRecipientBlocked });
    expect(await balanceOf(t.db, owner.user.id, NORMAL)).toBe(5);
  });
});

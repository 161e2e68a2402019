import { describe, expect, it } from 'vitest';
import {
  server,
  ui,
  recipientKeysToStrings,
  encodeRecipientKey,
  type SenderTemplate,
} from '@herald/contract';
import { ApiError } from '../../../lib/api-client';
import {
  availableFor,
  checkCampaignForm,
  costOf,
  EMPTY_FILES,
  EMPTY_VALUES,
  featuresOf,
  fileBlocker,
  encodeRecipients,
  keepsIdempotencyKey,
  mediaFieldsOf,
  ownerOptions,
  submitBlocker,
  withCreditType,
  type CampaignFormValues,
} from './create-form-logic';

const file = (name: string) => new File(['x'], name);
const filled: CampaignFormValues = { ...EMPTY_VALUES, message: '  Hello  ' };

describe('featuresOf', () => {
  it('reads DP, CTA and international from the credit type', () => {
    expect(featuresOf('Normal Message - domestic')).toEqual({
      international: false,
      dp: false,
      cta: false,
    });
    expect(featuresOf('With DP & CTA - domestic')).toEqual({
      international: false,
      dp: true,
      cta: true,
    });
    expect(featuresOf('With CTA - international')).toEqual({
      international: true,
      dp: false,
      cta: true,
    });
  });
});

describe('withCreditType', () => {
  const values: CampaignFormValues = {
    ...filled,
    countryName: 'India',
    countryCode: '+91',
    ctaCall: '12345',
    ctaCallText: 'Call',
    ctaURL: 'https://x.test',
    ctaURLText: 'Open',
  };
  const files = {
    dp: file('dp.png'),
    singleCreative: file('c.pdf'),
    images: [file('a.png')],
    video: file('v.mp4'),
    pdf: file('p.pdf'),
    audio: file('a.mp3'),
  };

  it('drops the inputs a plain domestic type does not take', () => {
    const next = withCreditType(values, files, 'Normal Message - domestic');
    expect(next.values).toEqual({ ...filled, creditType: 'Normal Message - domestic' });
    expect(next.files).toEqual({ ...files, dp: null, singleCreative: null });
  });

  it('keeps DP and CTA for a DP & CTA type, dropping the non-CTA media and the country', () => {
    const next = withCreditType(values, files, 'With DP & CTA - domestic');
    expect(next.files).toEqual({
      ...EMPTY_FILES,
      dp: files.dp,
      singleCreative: files.singleCreative,
    });
    expect(next.values.ctaCall).toBe('12345');
    expect(next.values.countryName).toBe('');
  });

  it('keeps the country for an international type', () => {
    const next = withCreditType(values, files, 'Normal Message - international');
    expect([next.values.countryName, next.values.countryCode]).toEqual(['India', '+91']);
    expect(next.values.ctaURL).toBe('');
  });
});

describe('availableFor and submitBlocker', () => {
  const balances = { 'a@x.test': { 'With DP - domestic': 5 } };

  it('is the balance of the owner and type, 0 when missing, unknown while loading', () => {
    expect(availableFor(balances, 'a@x.test', 'With DP - domestic')).toBe(5);
    expect(availableFor(balances, 'a@x.test', 'With CTA - domestic')).toBe(0);
    expect(availableFor(balances, 'b@x.test', 'With DP - domestic')).toBe(0);
    expect(availableFor(undefined, 'a@x.test', 'With DP - domestic')).toBeUndefined();
  });

  it('blocks more recipients than credits, and over a million', () => {
    expect(submitBlocker(5, 5)).toBeNull();
    expect(submitBlocker(6, 5)).toBe(ui.campaigns.insufficientCredits);
    expect(submitBlocker(6, undefined)).toBeNull();
    expect(submitBlocker(1_000_001, 2_000_000)).toBe(server.campaignTooManyRecipients);
  });
});

describe('checkCampaignForm', () => {
  it('sends trimmed fields, leaving out empty ones and those the type does not take', () => {
    const values = { ...filled, countryName: 'India', ctaCall: '123' };
    expect(checkCampaignForm(values, 3)).toEqual({
      ok: true,
      fields: { creditType: 'Normal Message - domestic', message: 'Hello' },
    });
  });

  it('sends the owner when one is chosen', () => {
    const checked = checkCampaignForm({ ...filled, userEmail: 'u@x.test' }, 1);
    expect(checked).toMatchObject({ ok: true, fields: { userEmail: 'u@x.test' } });
  });

  it('requires a message and at least one recipient', () => {
    expect(checkCampaignForm({ ...EMPTY_VALUES, message: '   ' }, 0)).toEqual({
      ok: false,
      errors: { message: ui.campaigns.messageRequired, recipients: ui.campaigns.noRecipients },
    });
  });

  it('requires country name and code for international types', () => {
    const values = { ...filled, creditType: 'With DP - international' as const, countryCode: '44' };
    expect(checkCampaignForm(values, 1)).toEqual({
      ok: false,
      errors: { countryName: ui.campaigns.countryRequired },
    });
    const ok = checkCampaignForm({ ...values, countryName: ' UK ' }, 1);
    expect(ok).toMatchObject({ ok: true, fields: { countryName: 'UK', countryCode: '44' } });
  });

  it('checks the CTA buttons as the server does', () => {
    const cta = { ...filled, creditType: 'With CTA - domestic' as const };
    expect(checkCampaignForm({ ...cta, ctaCallText: 'Call us' }, 1)).toEqual({
      ok: false,
      errors: { ctaCall: server.campaignCtaIncomplete },
    });
    expect(checkCampaignForm({ ...cta, ctaURL: 'ftp://x', ctaURLText: 'Go' }, 1)).toEqual({
      ok: false,
      errors: { ctaURL: server.campaignCtaUrlInvalid },
    });
    expect(checkCampaignForm({ ...cta, ctaCall: '12', ctaCallText: 'Call' }, 1)).toEqual({
      ok: false,
      errors: { ctaCall: server.campaignCtaCallInvalid },
    });
    const full = {
      ...cta,
      ctaCall: '9876543210',
      ctaCallText: 'Call',
      ctaURL: 'https://herald.test/x',
      ctaURLText: 'Open',
    };
    expect(checkCampaignForm(full, 1)).toMatchObject({ ok: true, fields: { ctaURLText: 'Open' } });
  });
});

describe('checkCampaignForm with a template', () => {
  const template: SenderTemplate = {
    id: '5b0c7f7e-0000-4000-8000-000000000001',
    senderId: 's1',
    name: 'order_update',
    language: 'en_US',
    body: 'Hi {{1}}, order {{2}} ships.',
    variables: 2,
    createdAt: '2026-01-01T00:00:00.000Z',
  };
  const values = { ...EMPTY_VALUES, message: '' };

  it('sends the template and its values, the filled text as the message', () => {
    const choice = { templateId: template.id, values: ['Asha', 'A-12'] };
    expect(checkCampaignForm(values, 1, { template, choice })).toEqual({
      ok: true,
      fields: {
        creditType: values.creditType,
        message: 'Hi Asha, order A-12 ships.',
        templateId: template.id,
        templateValues: '["Asha","A-12"]',
      },
    });
  });

  it('sends no button with a template, and does not check the hidden ones', () => {
    const cta = {
      ...values,
      creditType: 'With CTA - domestic' as const,
      ctaCallText: 'Call us',
      ctaURL: 'https://herald.test/x',
    };
    const choice = { templateId: template.id, values: ['Asha', 'A-12'] };
    const checked = checkCampaignForm(cta, 1, { template, choice });
    expect(checked).toMatchObject({ ok: true, fields: { templateId: template.id } });
    expect(checked.ok && Object.keys(checked.fields).filter((k) => k.startsWith('cta'))).toEqual(
      [],
    );
    expect(checkCampaignForm(cta, 1).ok).toBe(false);
  });

  it('refuses missing or invalid values under the variables, not the hidden message box', () => {
    const missing = { templateId: template.id, values: ['Asha', ''] };
    expect(checkCampaignForm(values, 1, { template, choice: missing })).toEqual({
      ok: false,
      errors: { templateValues: server.templateValuesMissing(2) },
    });
    const spaces = { templateId: template.id, values: ['Asha', 'A     12'] };
    expect(checkCampaignForm(values, 1, { template, choice: spaces })).toEqual({
      ok: false,
      errors: { templateValues: server.templateValueInvalid },
    });
  });
});

describe('encodeRecipients', () => {
  it('writes the numbers comma-joined with leading zeros, yielding between slices', async () => {
    const keys = new Float64Array(250_001);
    for (let i = 0; i < keys.length; i++) keys[i] = encodeRecipientKey(10, 9_000_000_000 + i);
    keys[0] = encodeRecipientKey(10, 987654321); // '0987654321'
    keys[1] = encodeRecipientKey(15, 999_999_999_999_999);
    keys[2] = encodeRecipientKey(7, 0); // '0000000'
    let pauses = 0;
    const bytes = await encodeRecipients(keys, async () => {
      pauses++;
    });
    expect(pauses).toBe(2);
    const to = new TextDecoder().decode(bytes);
    expect(to).toBe(recipientKeysToStrings(keys).join(','));
    expect(to.startsWith('0987654321,999999999999999,0000000,9000000003,')).toBe(true);
    expect((await encodeRecipients(new Float64Array(0))).length).toBe(0);
  });
});

describe('keepsIdempotencyKey', () => {
  it('keeps the key when the outcome is unknown, drops it after a definite answer', () => {
    expect(keepsIdempotencyKey(new TypeError('network'))).toBe(true);
    expect(keepsIdempotencyKey(new ApiError(502, undefined))).toBe(true);
    expect(keepsIdempotencyKey(new ApiError(409, server.idempotencyInProgress))).toBe(true);
    expect(keepsIdempotencyKey(new ApiError(409, ui.campaigns.insufficientCredits))).toBe(false);
    expect(keepsIdempotencyKey(new ApiError(400, 'bad'))).toBe(false);
  });
});

describe('ownerOptions', () => {
  it('offers Self and the Active users in scope, never a blocked one', () => {
    const me = { name: 'Ravi', email: 'ravi@x.test' };
    const users = [
      { name: 'Ravi', email: 'ravi@x.test', status: 'Active' as const },
      { name: 'Asha', email: 'asha@x.test', status: 'Active' as const },
      { name: 'Gone', email: 'gone@x.test', status: 'Blocked' as const },
    ];
    expect(ownerOptions(me, users)).toEqual([
      { value: '', label: 'Ravi (Self)' },
      { value: 'asha@x.test', label: 'Asha (asha@x.test)' },
    ]);
    expect(ownerOptions(me, undefined)).toEqual([{ value: '', label: 'Ravi (Self)' }]);
  });
});

describe('costOf', () => {
  it('says what is used and left, or how far the balance falls short', () => {
    expect(costOf(30, 150)).toEqual({ count: 30, available: 150, left: 120, short: 0 });
    expect(costOf(42, 40)).toEqual({ count: 42, available: 40, left: 0, short: 2 });
    expect(costOf(0, 40)).toBeNull();
    expect(costOf(3, undefined)).toBeNull();
  });
});

describe('fileBlocker', () => {
  it('blocks while a refused media file or an unreadable numbers file is listed', () => {
    expect(fileBlocker({}, [{ error: null }])).toBeNull();
    expect(fileBlocker({ dp: undefined }, [])).toBeNull();
    expect(fileBlocker({ images: 'too large' }, [])).toBe(ui.campaigns.fileRejectedBlocks);
    expect(fileBlocker({}, [{ error: ui.campaigns.fileUnreadable }])).toBe(
      ui.campaigns.fileRejectedBlocks,
    );
  });
});

describe('mediaFieldsOf', () => {
  it('lists the pickers each type shows', () => {
    expect(mediaFieldsOf(featuresOf('Normal Message - domestic'))).toEqual([
      'images',
      'video',
      'pdf',
      'audio',
    ]);
    expect(mediaFieldsOf(featuresOf('With DP & CTA - domestic'))).toEqual(['dp', 'singleCreative']);
  });
});

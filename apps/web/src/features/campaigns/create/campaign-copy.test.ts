import { describe, expect, it } from 'vitest';
import type { Campaign } from '@herald/contract';
import {
  copiedParts,
  copiedValues,
  csvHasNumbers,
  withoutHeader,
  fieldOfKind,
  filesIntoFields,
  formHoldsSomething,
} from './campaign-copy';
import { EMPTY_FILES, EMPTY_VALUES } from './create-form-logic';
import { NO_TEMPLATE } from './template-choice';

const campaign = {
  _id: 'c1',
  name: 'Diwali offer',
  userEmail: 'owner@example.com',
  userName: 'Owner',
  creditType: 'Normal Message - domestic',
  message: 'Hello\nworld',
  countryName: null,
  countryCode: null,
  ctaCall: null,
  ctaCallText: null,
  ctaURL: null,
  ctaURLText: null,
} as Campaign;

const file = (name: string) => new File(['x'], name, { type: 'image/png' });

describe('copiedValues', () => {
  it('copies type and message, suffixes the name, keeps another owner in Campaign For', () => {
    expect(copiedValues(campaign, 'all', 'reseller@example.com')).toEqual({
      ...EMPTY_VALUES,
      userEmail: 'owner@example.com',
      creditType: 'Normal Message - domestic',
      name: 'Diwali offer (copy)',
      message: 'Hello\nworld',
    });
    // The caller's own campaign: Self ('').
    expect(copiedValues(campaign, 'failed', 'owner@example.com')).toMatchObject({
      userEmail: '',
      name: 'Diwali offer (resend)',
    });
  });

  it('copies the buttons and country a type takes, and nothing a type does not', () => {
    const cta = {
      ...campaign,
      creditType: 'With CTA - international',
      countryName: 'Nepal',
      countryCode: '977',
      ctaCall: '9876543210',
      ctaCallText: 'Call us',
      ctaURL: 'https://example.com',
      ctaURLText: 'Visit',
    } as Campaign;
    const values = copiedValues(cta, 'not_read', 'x@example.com');
    expect(values).toMatchObject({
      countryName: 'Nepal',
      countryCode: '977',
      ctaCall: '9876543210',
      ctaCallText: 'Call us',
      ctaURL: 'https://example.com',
      ctaURLText: 'Visit',
    });
    expect(copiedParts(values, 1, { kind: 'not_read', count: 1234 })).toEqual([
      'credit type (With CTA - international)',
      'name',
      'message',
      'country',
      'buttons',
      '1 media file',
      '1,234 not-read numbers',
    ]);
    expect(copiedParts(values, 0, { kind: 'all', count: 2 }, 'order_update')).toEqual([
      'credit type (With CTA - international)',
      'name',
      'message',
      'template (order_update) with its values',
      'country',
      'buttons',
      '2 numbers',
    ]);
    // Leftovers a domestic type does not take (an edited row, say) stay out.
    const normal = copiedValues({ ...cta, creditType: 'Normal Message - domestic' }, 'all', '');
    expect(normal).toMatchObject({ countryName: '', ctaCall: '', ctaURL: '' });
  });
});

describe('filesIntoFields', () => {
  it('puts each stored kind into its picker, images in order up to the limit', () => {
    expect(fieldOfKind('image')).toBe('images');
    expect(fieldOfKind('dp')).toBe('dp');
    const [a, b, c, d, dp] = ['a.png', 'b.png', 'c.png', 'd.png', 'dp.png'].map(file);
    const files = filesIntoFields([
      { field: 'images', file: a! },
      { field: 'dp', file: dp! },
      { field: 'images', file: b! },
      { field: 'images', file: c! },
      { field: 'images', file: d! },
    ]);
    expect(files.images.map((f) => f.name)).toEqual(['a.png', 'b.png', 'c.png']);
    expect(files.dp?.name).toBe('dp.png');
    expect(files.video).toBeNull();
  });
});

describe('withoutHeader', () => {
  it('drops the header line only, whatever its line end', async () => {
    expect(await (await withoutHeader(new Blob(['number\r\n1234567\r\n']))).text()).toBe(
      '1234567\r\n',
    );
    expect(await (await withoutHeader(new Blob(['number\n1234567\n']))).text()).toBe('1234567\n');
    expect(await (await withoutHeader(new Blob(['1234567\n']))).text()).toBe('1234567\n');
  });
});

describe('csvHasNumbers', () => {
  it('tells a numbers CSV from one holding only its header', async () => {
    expect(await csvHasNumbers(new Blob(['number\r\n']))).toBe(false);
    expect(await csvHasNumbers(new Blob(['number\r\n\r\n']))).toBe(false);
    expect(await csvHasNumbers(new Blob(['number\r\n919876543210\r\n']))).toBe(true);
    expect(await csvHasNumbers(new Blob(['number\n123456789012345\n']))).toBe(true);
  });
});

describe('formHoldsSomething', () => {
  const empty = {
    values: EMPTY_VALUES,
    template: NO_TEMPLATE,
    numbersText: '',
    recipients: 0,
    inputs: 0,
    files: EMPTY_FILES,
  };
  it('is false for an untouched form, whatever owner and type are picked', () => {
    expect(formHoldsSomething(empty)).toBe(false);
    const picked = {
      ...EMPTY_VALUES,
      userEmail: 'a@example.com',
      creditType: 'With DP - domestic',
    };
    expect(formHoldsSomething({ ...empty, values: picked as typeof EMPTY_VALUES })).toBe(false);
  });
  it('is true for typed text, numbers, an added numbers file or a chosen media file', () => {
    expect(formHoldsSomething({ ...empty, values: { ...EMPTY_VALUES, message: 'Hi' } })).toBe(true);
    expect(formHoldsSomething({ ...empty, numbersText: '98765 43210' })).toBe(true);
    const template = { templateId: 'a', values: ['Asha'] };
    expect(formHoldsSomething({ ...empty, template })).toBe(true);
    expect(formHoldsSomething({ ...empty, inputs: 1 })).toBe(true);
    expect(formHoldsSomething({ ...empty, recipients: 3 })).toBe(true);
    const files = { ...EMPTY_FILES, images: [file('a.png')] };
    expect(formHoldsSomething({ ...empty, files })).toBe(true);
  });
});

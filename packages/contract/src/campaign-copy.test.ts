import { describe, expect, it } from 'vitest';
import {
  CampaignNumbersQuerySchema,
  copyCampaignName,
  copyNumbersFileName,
} from './campaign-copy.js';
import { CAMPAIGN_NAME_MAX } from './schemas/campaigns.js';

describe('copyCampaignName', () => {
  it('suffixes the name by what is copied', () => {
    expect(copyCampaignName('Diwali offer', 'all')).toBe('Diwali offer (copy)');
    expect(copyCampaignName('Diwali offer', 'failed')).toBe('Diwali offer (resend)');
    expect(copyCampaignName(' Diwali offer ', 'not_read')).toBe('Diwali offer (resend)');
  });

  it('cuts the name, never the suffix or a character, to stay within the maximum', () => {
    const long = 'x'.repeat(CAMPAIGN_NAME_MAX);
    const copy = copyCampaignName(long, 'all');
    expect(copy).toHaveLength(CAMPAIGN_NAME_MAX);
    expect(copy.endsWith('x (copy)')).toBe(true);
    // An emoji is two UTF-16 units: it goes whole or stays whole.
    const emoji = `${'y'.repeat(CAMPAIGN_NAME_MAX - 9)}🎉🎉`;
    const cut = copyCampaignName(emoji, 'failed');
    expect(cut.length).toBeLessThanOrEqual(CAMPAIGN_NAME_MAX);
    expect(cut).toBe(`${'y'.repeat(CAMPAIGN_NAME_MAX - 9)} (resend)`);
    // A name that already fits is not touched, even at the maximum exactly.
    const fits = 'z'.repeat(CAMPAIGN_NAME_MAX - ' (copy)'.length);
    expect(copyCampaignName(fits, 'all')).toBe(`${fits} (copy)`);
  });
});

describe('copyNumbersFileName', () => {
  it('names the group and the campaign, without characters a file name cannot hold', () => {
    expect(copyNumbersFileName('Diwali offer', 'failed')).toBe(
      'Failed numbers of Diwali offer.csv',
    );
    expect(copyNumbersFileName('Diwali offer', 'not_read')).toBe(
      'Not-read numbers of Diwali offer.csv',
    );
    expect(copyNumbersFileName('a/b: c?', 'all')).toBe('Numbers of a_b_ c_.csv');
  });
});

describe('CampaignNumbersQuerySchema', () => {
  it('takes all, failed or not_read; all when missing', () => {
    expect(CampaignNumbersQuerySchema.parse({})).toEqual({ which: 'all' });
    expect(CampaignNumbersQuerySchema.parse({ which: 'not_read' })).toEqual({ which: 'not_read' });
    for (const which of ['read', 'delivered', '', 'ALL']) {
      expect(CampaignNumbersQuerySchema.safeParse({ which }).success, which).toBe(false);
    }
  });
});

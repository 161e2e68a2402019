import { describe, expect, it } from 'vitest';
import { campaignListParams, EMPTY_CAMPAIGN_FILTERS } from './get-campaigns';

describe('campaignListParams', () => {
  it('leaves unset filters out', () => {
    expect(campaignListParams(EMPTY_CAMPAIGN_FILTERS)).toEqual({});
    expect(
      campaignListParams({ ...EMPTY_CAMPAIGN_FILTERS, from: '2026-01-01', status: 'Approved' }),
    ).toEqual({ from: '2026-01-01', status: 'Approved' });
  });
});

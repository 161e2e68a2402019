import { describe, expect, it } from 'vitest';
import type { Campaign } from '@herald/contract';
import { ACTION_LABELS, campaignActionsFor } from './campaign-actions';

const base = { status: 'Submitted', reportCount: 0 } as Campaign;

describe('campaignActionsFor', () => {
  it('gives Admin status and report upload, never a cancellation request', () => {
    expect(campaignActionsFor('Admin', base)).toEqual(['view', 'download', 'status', 'upload']);
  });
  it('offers View Report only once a report exists', () => {
    expect(campaignActionsFor('Admin', { ...base, reportCount: 3 })).toContain('report');
    expect(campaignActionsFor('User', { ...base, reportCount: 3 })).toContain('report');
  });
  it('lets others request cancellation only from Submitted, Pending Approval or Approved', () => {
    expect(campaignActionsFor('User', base)).toEqual(['view', 'download', 'cancel']);
    expect(campaignActionsFor('Reseller', { ...base, status: 'Approved' })).toContain('cancel');
    for (const status of ['Processing', 'Completed', 'Cancellation Requested'] as const) {
      expect(campaignActionsFor('User', { ...base, status })).toEqual(['view', 'download']);
    }
  });
  it('labels the upload by whether a report exists', () => {
    expect(ACTION_LABELS.upload(base)).toBe('Upload Report');
    expect(ACTION_LABELS.upload({ ...base, reportCount: 1 })).toBe('Update Report');
  });
});

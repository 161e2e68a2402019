import { describe, expect, it } from 'vitest';
import type { Campaign, DeliveryProgress } from '@herald/contract';
import { ACTION_LABELS, campaignActionsFor, COPY_ACTIONS } from './campaign-actions';

const base = {
  status: 'Submitted',
  reportCount: 0,
  reportDelivered: 0,
  delivery: null,
} as Campaign;

describe('campaignActionsFor', () => {
  it('gives Admin status and report upload, never a cancellation request', () => {
    const approved = { ...base, status: 'Approved' } as Campaign;
    expect(campaignActionsFor('Admin', approved)).toEqual([
      'view',
      'download',
      'status',
      'upload',
      'clone',
    ]);
  });
  it('gives Admin Approve and Reject while the campaign awaits approval, and nobody else', () => {
    for (const status of ['Submitted', 'Pending Approval'] as const) {
      expect(campaignActionsFor('Admin', { ...base, status })).toEqual([
        'view',
        'download',
        'approve',
        'reject',
        'status',
        'upload',
        'clone',
      ]);
      expect(campaignActionsFor('Reseller', { ...base, status })).not.toContain('approve');
    }
    for (const status of ['Approved', 'Rejected', 'Cancelled'] as const) {
      expect(campaignActionsFor('Admin', { ...base, status })).not.toContain('approve');
    }
  });
  it('offers View Report only once a report exists', () => {
    expect(campaignActionsFor('Admin', { ...base, reportCount: 3 })).toContain('report');
    expect(campaignActionsFor('User', { ...base, reportCount: 3 })).toContain('report');
  });
  it('lets others request cancellation only from Submitted, Pending Approval or Approved', () => {
    expect(campaignActionsFor('User', base)).toEqual(['view', 'download', 'cancel', 'clone']);
    expect(campaignActionsFor('Reseller', { ...base, status: 'Approved' })).toContain('cancel');
    for (const status of ['Processing', 'Completed', 'Cancellation Requested'] as const) {
      expect(campaignActionsFor('User', { ...base, status })).toEqual([
        'view',
        'download',
        'clone',
      ]);
    }
  });
  it('gives Admin pause, resume and cancel while the engine sends, and nobody else', () => {
    const sending = (dispatchState: DeliveryProgress['dispatchState']) =>
      ({
        ...base,
        status: 'Processing',
        delivery: { dispatchState } as DeliveryProgress,
      }) as Campaign;
    expect(campaignActionsFor('Admin', sending('running'))).toEqual(
      expect.arrayContaining(['pause', 'stop']),
    );
    expect(campaignActionsFor('Admin', sending('running'))).not.toContain('resume');
    expect(campaignActionsFor('Admin', sending('waiting'))).toContain('pause');
    const paused = campaignActionsFor('Admin', sending('paused'));
    expect(paused).toContain('resume');
    expect(paused).toContain('stop');
    expect(paused).not.toContain('pause');
    for (const done of ['done', 'cancelled'] as const) {
      const actions = campaignActionsFor('Admin', sending(done));
      for (const a of ['pause', 'resume', 'stop'] as const) expect(actions).not.toContain(a);
    }
    for (const role of ['Reseller', 'Sub-Reseller', 'User'] as const) {
      const actions = campaignActionsFor(role, sending('running'));
      for (const a of ['pause', 'resume', 'stop'] as const) expect(actions).not.toContain(a);
    }
  });
  it('offers Clone to every role, and the two Resend actions only once a report exists', () => {
    for (const role of ['Admin', 'Reseller', 'Sub-Reseller', 'User'] as const) {
      const without = campaignActionsFor(role, base);
      expect(without).toContain('clone');
      expect(without).not.toContain('resendFailed');
      expect(without).not.toContain('resendNotRead');
      const reported = { ...base, status: 'Report Generated', reportCount: 2 } as Campaign;
      expect(campaignActionsFor(role, reported).slice(-3)).toEqual([
        'clone',
        'resendFailed',
        'resendNotRead',
      ]);
      // Nobody failed: nothing to resend to the failed.
      const allDelivered = { ...reported, reportDelivered: 2 };
      expect(campaignActionsFor(role, allDelivered).slice(-2)).toEqual(['clone', 'resendNotRead']);
      // Everyone read (the engine knows): nothing to resend to the not read.
      const allRead = {
        ...allDelivered,
        delivery: { read: 2 } as Campaign['delivery'],
      } as Campaign;
      expect(campaignActionsFor(role, allRead).at(-1)).toBe('clone');
    }
    expect(ACTION_LABELS.clone(base)).toBe('Clone');
    expect(ACTION_LABELS.resendFailed(base)).toBe('Resend to failed');
    expect(ACTION_LABELS.resendNotRead(base)).toBe('Resend to not read');
    expect(COPY_ACTIONS).toEqual({
      clone: 'all',
      resendFailed: 'failed',
      resendNotRead: 'not_read',
    });
  });
  it('labels the upload by whether a report exists', () => {
    expect(ACTION_LABELS.upload(base)).toBe('Upload Report');
    expect(ACTION_LABELS.upload({ ...base, reportCount: 1 })).toBe('Update Report');
  });
});

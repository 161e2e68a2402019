import { describe, expect, it } from 'vitest';
import { server as msg, type BulkApproveReply, type Campaign } from '@herald/contract';
import { refusedLines } from './bulk-approve';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const C = '33333333-3333-4333-8333-333333333333';

describe('refusedLines', () => {
  it('names each refused campaign with its reason, in order, and skips the approved', () => {
    const reply: BulkApproveReply = {
      message: msg.bulkApproveResult(1, 2),
      approvedCount: 1,
      refusedCount: 2,
      results: [
        { id: B, approved: false, message: msg.campaignNotAwaitingApproval('Approved') },
        { id: A, approved: true, campaign: { _id: A } as Campaign },
        { id: C, approved: false, message: msg.campaignNotFound },
      ],
    };
    const shown = [{ _id: B, userName: 'Asha' } as Campaign];
    expect(refusedLines(reply, shown)).toEqual([
      `Asha (22222222): ${msg.campaignNotAwaitingApproval('Approved')}`,
      `33333333: ${msg.campaignNotFound}`,
    ]);
  });

  it('is empty when every campaign was approved', () => {
    const reply: BulkApproveReply = {
      message: msg.bulkApproveResult(1, 0),
      approvedCount: 1,
      refusedCount: 0,
      results: [{ id: A, approved: true, campaign: { _id: A } as Campaign }],
    };
    expect(refusedLines(reply, [])).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  CAMPAIGN_TRANSITIONS,
  canEverMoveTo,
  canTransition,
  transitionActorOf,
  transitionActors,
  transitionTargets,
} from './campaign-transitions.js';
import { isOwnerCancellable } from './schemas/campaign-actions.js';
import { server } from './server-messages.js';
import { CAMPAIGN_STATUSES, type CampaignStatus } from './statuses.js';

const pairs = CAMPAIGN_STATUSES.flatMap((from) =>
  CAMPAIGN_STATUSES.map((to): [CampaignStatus, CampaignStatus] => [from, to]),
);
const OWNER_SOURCES: CampaignStatus[] = ['Submitted', 'Pending Approval', 'Approved'];

describe('the campaign transition table', () => {
  it('has a row for every status and a cell for every other status', () => {
    expect(Object.keys(CAMPAIGN_TRANSITIONS).sort()).toEqual([...CAMPAIGN_STATUSES].sort());
    for (const from of CAMPAIGN_STATUSES) {
      const others = CAMPAIGN_STATUSES.filter((s) => s !== from);
      expect(Object.keys(CAMPAIGN_TRANSITIONS[from]).sort()).toEqual(others.sort());
    }
  });

  it('staying put is no move, for anyone', () => {
    for (const s of CAMPAIGN_STATUSES) {
      expect(transitionActors(s, s)).toEqual([]);
      for (const by of ['admin', 'owner', 'system'] as const) {
        expect(canTransition(s, s, by)).toBe(false);
      }
    }
  });

  it('the Admin may set any status from any other', () => {
    for (const [from, to] of pairs) {
      expect(canTransition(from, to, 'admin'), `${from} → ${to}`).toBe(from !== to);
    }
    expect(transitionTargets('Completed', 'admin')).toEqual(
      CAMPAIGN_STATUSES.filter((s) => s !== 'Completed'),
    );
  });

  it('the owner may only ask to cancel, from Submitted, Pending Approval or Approved', () => {
    const ownerMoves = pairs.filter(([from, to]) => canTransition(from, to, 'owner'));
    expect(ownerMoves).toEqual(OWNER_SOURCES.map((from) => [from, 'Cancellation Requested']));
    for (const s of CAMPAIGN_STATUSES) {
      expect(isOwnerCancellable(s)).toBe(OWNER_SOURCES.includes(s));
    }
    expect(transitionTargets('Approved', 'owner')).toEqual(['Cancellation Requested']);
    expect(transitionTargets('Processing', 'owner')).toEqual([]);
    expect(canEverMoveTo('Cancellation Requested', 'owner')).toBe(true);
    expect(canEverMoveTo('Cancelled', 'owner')).toBe(false);
    // The server's refusal names the statuses the table allows.
    expect(server.campaignNotCancellable).toBe(
      `Only a ${OWNER_SOURCES.slice(0, -1).join(', ')} or ${OWNER_SOURCES.at(-1)} campaign can be cancelled.`,
    );
  });

  it('the delivery engine moves Approved to Processing to Completed to Report Generated only', () => {
    const engine = [
      ['Approved', 'Processing'],
      ['Processing', 'Completed'],
      ['Completed', 'Report Generated'],
    ];
    for (const [from, to] of pairs) {
      const expected = engine.some(([f, t]) => f === from && t === to);
      expect(canTransition(from, to, 'system'), `${from} -> ${to}`).toBe(expected);
    }
  });

  it('maps roles to their side of the table', () => {
    expect(transitionActorOf('Admin')).toBe('admin');
    for (const role of ['Reseller', 'Sub-Reseller', 'User'] as const) {
      expect(transitionActorOf(role)).toBe('owner');
    }
  });
});

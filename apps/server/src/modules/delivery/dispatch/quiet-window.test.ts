import { describe, expect, it } from 'vitest';
import { ZONE_IDS } from '../../campaigns/index.js';
import { inWindow, localMinutes, quietNow } from './quiet-window.js';

const id = (zone: string) => ZONE_IDS.indexOf(zone);
const KOLKATA = id('Asia/Kolkata');
const NEW_YORK = id('America/New_York');
const night = { start: 21 * 60, end: 8 * 60 };

describe('quiet hours windows', () => {
  it('a window wrapping midnight holds from its start to its end the next morning', () => {
    expect(inWindow(night, 21 * 60)).toBe(true);
    expect(inWindow(night, 23 * 60 + 59)).toBe(true);
    expect(inWindow(night, 0)).toBe(true);
    expect(inWindow(night, 7 * 60 + 59)).toBe(true);
    expect(inWindow(night, 8 * 60)).toBe(false);
    expect(inWindow(night, 20 * 60 + 59)).toBe(false);
    const lunch = { start: 12 * 60, end: 13 * 60 };
    expect(inWindow(lunch, 12 * 60 + 30)).toBe(true);
    expect(inWindow(lunch, 13 * 60)).toBe(false);
    expect(inWindow(lunch, 11 * 60)).toBe(false);
  });

  it('reads each zone’s local time', () => {
    const at = new Date('2026-01-15T18:00:00Z');
    expect(localMinutes('Asia/Kolkata', at)).toBe(23 * 60 + 30);
    expect(localMinutes('America/New_York', at)).toBe(13 * 60);
  });

  it('names the closed zones and when the first of them opens', () => {
    // 23:30 in Kolkata (quiet), 13:00 in New York (open).
    const q = quietNow(night, [KOLKATA, NEW_YORK], new Date('2026-01-15T18:00:20Z'));
    expect(q.closed).toEqual([KOLKATA]);
    expect(q.opensAt).toEqual(new Date('2026-01-16T02:30:00Z')); // 08:00 in Kolkata
    const both = quietNow(night, [KOLKATA, NEW_YORK], new Date('2026-01-16T02:00:00Z'));
    expect(both.closed).toEqual([KOLKATA, NEW_YORK]);
    expect(both.opensAt).toEqual(new Date('2026-01-16T02:30:00Z'));
    const open = quietNow(night, [KOLKATA, NEW_YORK], new Date('2026-01-15T13:00:00Z'));
    expect(open).toEqual({ closed: [], opensAt: null });
  });
});

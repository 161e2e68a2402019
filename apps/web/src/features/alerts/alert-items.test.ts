import { describe, expect, it } from 'vitest';
import type { Announcement, Notification } from '@herald/contract';
import { externalLink } from '../../lib/external-link';
import { countRose, internalPath, mergeAlerts, previewOf, unreadTotal } from './alert-items';

const note = (id: string, createdAt: string, read = false): Notification => ({
  _id: id,
  eventType: 'credits',
  message: id,
  link: '/history',
  createdAt,
  read,
});
const ann = (id: string, createdAt: string, seen = false): Announcement => ({
  _id: id,
  title: id,
  message: id,
  image: null,
  link: null,
  createdAt,
  expiryDate: null,
  visibility: { type: 'all' },
  seen,
});

describe('the bell list', () => {
  it('merges unread notifications and unseen announcements newest first', () => {
    const items = mergeAlerts(
      [
        note('n1', '2026-01-01T10:00:00Z'),
        note('n2', '2026-01-03T10:00:00Z'),
        note('r', '2026-01-05T00:00:00Z', true),
      ],
      [ann('a1', '2026-01-02T10:00:00Z'), ann('s', '2026-01-06T00:00:00Z', true)],
    );
    expect(items.map((i) => i.id)).toEqual(['n:n2', 'a:a1', 'n:n1']);
  });

  it('counts the badge from the server totals', () => {
    expect(
      unreadTotal(
        { notifications: [], unreadCount: 3, nextCursor: null },
        { announcements: [], unseenCount: 2, nextCursor: null },
      ),
    ).toBe(5);
    expect(unreadTotal(undefined, undefined)).toBe(0);
  });

  it('previews the first 70 characters', () => {
    expect(previewOf('short')).toBe('short');
    expect(previewOf('x'.repeat(71))).toBe(`${'x'.repeat(70)}…`);
    expect(previewOf('😀'.repeat(70))).toBe('😀'.repeat(70));
  });

  it('follows only links of this site, and Learn More only http(s)', () => {
    expect(internalPath('/tickets')).toBe('/tickets');
    for (const bad of [
      '//evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      '/\\evil',
      null,
    ]) {
      expect(internalPath(bad)).toBeNull();
    }
    expect(externalLink('https://example.com/a')).toBe('https://example.com/a');
    expect(externalLink('javascript:alert(1)')).toBeNull();
  });

  it('chimes only when the count rises after the first load', () => {
    expect(countRose(undefined, 3)).toBe(false);
    expect(countRose(3, 3)).toBe(false);
    expect(countRose(3, 2)).toBe(false);
    expect(countRose(2, 3)).toBe(true);
  });
});

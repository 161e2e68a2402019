import { describe, expect, it } from 'vitest';
import type { CampaignReport } from '@herald/contract';
import {
  entryAt,
  ENTRY_ROW_COMPACT_PX,
  ENTRY_ROW_PX,
  pageStarts,
  visibleRange,
} from './report-window';

const summary = { total: 0, delivered: 0, failed: 0 };
const page = (from: number, n: number): CampaignReport => ({
  summary,
  nextCursor: null,
  entries: Array.from({ length: n }, (_, i) => ({
    recipient: String(from + i),
    status: 'x',
    reason: null,
    changedAt: null,
  })),
});

describe('pageStarts and entryAt', () => {
  it('finds every entry across uneven pages', () => {
    const pages = [page(0, 3), page(3, 0), page(3, 5), page(8, 1)];
    const starts = pageStarts(pages);
    expect(starts).toEqual([0, 3, 3, 8, 9]);
    for (let i = 0; i < 9; i++) expect(entryAt(pages, starts, i).recipient).toBe(String(i));
  });
});

describe('visibleRange', () => {
  it('renders the view plus overscan, never past what is loaded', () => {
    expect(visibleRange(0, 0)).toEqual({ first: 0, last: 0 });
    expect(visibleRange(0, 1000)).toEqual({ first: 0, last: 21 });
    const deep = visibleRange(500 * ENTRY_ROW_PX, 1000);
    expect(deep.first).toBe(490);
    expect(deep.last - deep.first).toBeLessThan(40);
    expect(visibleRange(10_000 * ENTRY_ROW_PX, 1000)).toEqual({ first: 1000, last: 1000 });
  });

  it("counts a phone's taller rows", () => {
    const deep = visibleRange(500 * ENTRY_ROW_COMPACT_PX, 1000, ENTRY_ROW_COMPACT_PX);
    expect(deep.first).toBe(490);
    expect(visibleRange(0, 1000, ENTRY_ROW_COMPACT_PX)).toEqual({ first: 0, last: 16 });
  });
});

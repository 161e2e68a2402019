import type { CampaignReport, ReportEntry } from '@herald/contract';

/** Every row has this height, so the visible window is plain arithmetic. */
export const ENTRY_ROW_PX = 33;
/** On a phone a row has three lines: number and status, the reason, the last change. */
export const ENTRY_ROW_COMPACT_PX = 70;
export const VIEW_PX = 360;
const OVERSCAN = 10;

/** Where each loaded page starts, plus the total at the end (for a binary search). */
export function pageStarts(pages: readonly CampaignReport[]): number[] {
  const starts: number[] = [];
  let n = 0;
  for (const p of pages) {
    starts.push(n);
    n += p.entries.length;
  }
  starts.push(n);
  return starts;
}

/** The entry at index `i` (0 ≤ i < total loaded) across the pages. */
export function entryAt(
  pages: readonly CampaignReport[],
  starts: readonly number[],
  i: number,
): ReportEntry {
  let lo = 0;
  let hi = pages.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= i) lo = mid;
    else hi = mid - 1;
  }
  return pages[lo]!.entries[i - starts[lo]!]!;
}

/** The rows to render, [first, last), for a scroll offset: the view plus some overscan. */
export function visibleRange(
  scrollTop: number,
  loaded: number,
  rowPx: number = ENTRY_ROW_PX,
): { first: number; last: number } {
  const first = Math.min(loaded, Math.max(0, Math.floor(scrollTop / rowPx) - OVERSCAN));
  const last = Math.min(loaded, Math.ceil((scrollTop + VIEW_PX) / rowPx) + OVERSCAN);
  return { first, last };
}

import { zoneName } from '../../campaigns/index.js';
import type { QuietMinutes } from '../../quiet-hours/index.js';

/**
 * Which of a campaign's recipient zones are in quiet hours at a given instant, and when the
 * first of them opens again (docs/delivery.md, Quiet hours). Pure: the caller passes `now`, so
 * tests control the clock. A window is [start, end) in local minutes; start > end wraps midnight.
 */

const MINUTES_PER_DAY = 1440;
const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(zone, f);
  }
  return f;
}

/** Minutes after local midnight in `zone` at `now`. */
export function localMinutes(zone: string, now: Date): number {
  let hour = 0;
  let minute = 0;
  for (const part of formatOf(zone).formatToParts(now)) {
    if (part.type === 'hour') hour = Number(part.value);
    else if (part.type === 'minute') minute = Number(part.value);
  }
  return hour * 60 + minute;
}

/** Whether local time `minutes` lies in the window (start included, end excluded). */
export function inWindow(w: QuietMinutes, minutes: number): boolean {
  return w.start < w.end
    ? minutes >= w.start && minutes < w.end
    : minutes >= w.start || minutes < w.end;
}

export interface QuietNow {
  /** The campaign's zone ids in quiet hours now. */
  closed: number[];
  /** When the first of them leaves quiet hours (null when none is closed). */
  opensAt: Date | null;
}

/** The closed zones among `zones` at `now`, and the earliest time one of them opens. */
export function quietNow(w: QuietMinutes, zones: readonly number[], now: Date): QuietNow {
  const closed: number[] = [];
  let opensAt: number | null = null;
  // The start of the current minute: windows are whole minutes.
  const minuteStart = Math.floor(now.getTime() / 60_000) * 60_000;
  for (const id of zones) {
    const m = localMinutes(zoneName(id), now);
    if (!inWindow(w, m)) continue;
    closed.push(id);
    const wait = (w.end - m + MINUTES_PER_DAY) % MINUTES_PER_DAY || MINUTES_PER_DAY;
    const at = minuteStart + wait * 60_000;
    if (opensAt === null || at < opensAt) opensAt = at;
  }
  return { closed, opensAt: opensAt === null ? null : new Date(opensAt) };
}

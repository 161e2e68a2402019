/**
 * A count as '1,234,567', the same in every locale and on both sides: the screens draw counts
 * with it, and the messages that name a limit ("… from 1 to 10,000.") are built with it, some of
 * them when a schema module loads. Written by hand rather than through Intl: a page's first
 * `toLocaleString()` on a number sets up ICU's number formatting, about 37 ms on this machine
 * and 150 ms at a phone's 4x slowdown (a CPU profile of the campaign list's load), and that cost
 * fell on the first render of the dashboard and /campaigns (docs/performance.md, Page speed).
 * Fractions keep up to three digits, rounded, as `toLocaleString('en-US')` does.
 */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const rounded = Math.round(Math.abs(n) * 1000) / 1000;
  const [whole = '0', fraction] = rounded.toString().split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${n < 0 && rounded !== 0 ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

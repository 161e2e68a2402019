/** Formatters shared by the screens. */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A day as '2 Dec 2026' in the viewer's time zone, the same in every locale (a numeric date
 * reads differently in India and the US). Built by hand rather than through Intl: the first
 * date formatter a page creates costs 30-50 ms of ICU set-up, and the side menu's 'Member since'
 * draws in the first render of every signed-in page (docs/performance.md, Page speed).
 */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '-';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '-';
  return `${d.getDate()} ${MONTHS[d.getMonth()]} ${d.getFullYear()}`;
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '-';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '-' : d.toLocaleString();
}

/** '-' for an empty value (profile cards). */
export function orDash(v: string | null | undefined): string {
  return v && v.trim() ? v : '-';
}

/** '512 B', '12.3 KB', '4.5 MB': file sizes and download progress. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

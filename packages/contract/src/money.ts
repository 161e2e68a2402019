/**
 * Money is exact: rupees travel as numbers with at most 2 decimals and are stored as integer
 * paise. Conversion goes through the decimal string, never through float arithmetic.
 */
const RUPEES = /^(\d{1,9})(?:\.(\d{1,2}))?$/;

/** Paise for a rupee amount (number or string) with at most 2 decimals; null when invalid. */
export function rupeesToPaise(value: number | string): number | null {
  const text =
    typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  const m = RUPEES.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** Rupees (2 decimals exact in decimal notation) for integer paise. */
export function paiseToRupees(paise: number): number {
  return Number(`${Math.trunc(paise / 100)}.${String(Math.abs(paise % 100)).padStart(2, '0')}`);
}

/** '₹1,234.50' for display. */
export function formatRupees(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'N/A';
  return `₹${value.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

import type { Balances } from '@herald/contract';

export interface BalanceRow {
  key: string;
  email: string;
  creditType: string;
  balance: number;
}

/**
 * One row per user and credit type, over the pages loaded so far, in the server's order (users
 * by email across pages, then credit types): a page's map keeps the order it was sent in.
 */
export function balanceRows(pages: readonly Balances[] | undefined): BalanceRow[] {
  const rows: BalanceRow[] = [];
  const seen = new Set<string>();
  for (const balances of pages ?? []) {
    for (const [email, types] of Object.entries(balances)) {
      for (const [creditType, balance] of Object.entries(types ?? {})) {
        const key = `${email}\u0000${creditType}`;
        if (seen.has(key)) continue;
        seen.add(key);
        rows.push({ key, email, creditType, balance: typeof balance === 'number' ? balance : 0 });
      }
    }
  }
  return rows;
}

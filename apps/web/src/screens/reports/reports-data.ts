import type { Balances, SessionUser, User } from '@herald/contract';

export interface BalanceRow {
  key: string;
  name: string;
  email: string;
  creditType: string;
  balance: number;
}

/**
 * One row per user and credit type, by email then type. Names come from the users list (the
 * caller itself is not in it); an email without a known user shows '-'.
 */
export function balanceRows(
  balances: Balances | undefined,
  users: readonly User[] | undefined,
  me: SessionUser,
): BalanceRow[] {
  if (!balances) return [];
  const names = new Map<string, string>([[me.email, me.name]]);
  for (const u of users ?? []) names.set(u.email, u.name);
  const rows: BalanceRow[] = [];
  for (const email of Object.keys(balances).sort()) {
    const types = balances[email] ?? {};
    for (const creditType of Object.keys(types).sort()) {
      rows.push({
        key: `${email}\u0000${creditType}`,
        name: names.get(email) ?? '-',
        email,
        creditType,
        balance: types[creditType] ?? 0,
      });
    }
  }
  return rows;
}

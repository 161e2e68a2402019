import {
  HistoryQuerySchema,
  type CreditTransaction,
  type CreditTransactionType,
  type HistoryReply,
} from '@herald/contract';
import type { HistoryFilterValues } from '../../api/history/get-history';
import type { SelectOption } from '../../components/form-field';

/** The server's own rule (Start Date not after End Date) checked before asking; null when valid. */
export function filtersProblem(filters: HistoryFilterValues): string | null {
  const result = HistoryQuerySchema.safeParse(filters);
  return result.success ? null : (result.error.issues[0]?.message ?? 'Invalid filters.');
}

const NO_TRANSACTIONS: readonly CreditTransaction[] = [];

/** A page's rows; a non-array `transactions` counts as none. Stable for memoized rows. */
export function pageTransactions(page: HistoryReply | undefined): readonly CreditTransaction[] {
  return page && Array.isArray(page.transactions) ? page.transactions : NO_TRANSACTIONS;
}

export function countRows(pages: readonly HistoryReply[]): number {
  let n = 0;
  for (const page of pages) n += pageTransactions(page).length;
  return n;
}

type FilterableUser = NonNullable<HistoryReply['allFilterableUsers']>[number];
type RemainingCredit = NonNullable<HistoryReply['userRemainingCredits']>[number];

export interface HistoryLists {
  users: readonly FilterableUser[];
  creditTypes: readonly string[];
  remaining: readonly RemainingCredit[];
}

function listOf<T>(value: readonly T[] | undefined): readonly T[] {
  return Array.isArray(value) ? value : [];
}

/** The selects' options and the caller's balances, which only the first page carries. */
export function firstPageLists(first: HistoryReply | undefined): HistoryLists {
  return {
    users: listOf(first?.allFilterableUsers),
    creditTypes: listOf(first?.allAvailableCreditTypes),
    remaining: listOf(first?.userRemainingCredits),
  };
}

/**
 * 'Name (email)' options, value the email. A chosen email missing from the list (the lists were
 * cleared by an error) stays as an option so the select still shows what is applied.
 */
export function userOptions(users: readonly FilterableUser[], selected: string): SelectOption[] {
  const options = users.map((u) => ({ value: u.email, label: `${u.name} (${u.email})` }));
  if (selected && !users.some((u) => u.email === selected)) {
    options.unshift({ value: selected, label: selected });
  }
  return options;
}

/** The server's credit types, plus the chosen one when it is missing (see userOptions). */
export function creditTypeOptions(types: readonly string[], selected: string): string[] {
  return selected && !types.includes(selected) ? [selected, ...types] : [...types];
}

export function transactionTypeVariant(type: CreditTransactionType): 'success' | 'danger' {
  return type === 'Added' ? 'success' : 'danger';
}

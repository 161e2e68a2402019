import { paiseToRupees, type CreditTransaction } from '@herald/contract';
import type { CreditTransactionsTable } from '../../db/schema.js';
import type { Selectable } from 'kysely';

export type CreditTransactionRow = Selectable<CreditTransactionsTable>;

/** Columns a presented entry needs (never the internal ids of users). */
export const CREDIT_TRANSACTION_COLUMNS = [
  'credit_transactions.id',
  'credit_transactions.to_email',
  'credit_transactions.to_name',
  'credit_transactions.by_email',
  'credit_transactions.by_name',
  'credit_transactions.type',
  'credit_transactions.credit_type',
  'credit_transactions.count',
  'credit_transactions.rate_paise',
  'credit_transactions.total_paise',
  'credit_transactions.reason',
  'credit_transactions.created_at',
] as const;

export type PresentableRow = Pick<
  CreditTransactionRow,
  | 'id'
  | 'to_email'
  | 'to_name'
  | 'by_email'
  | 'by_name'
  | 'type'
  | 'credit_type'
  | 'count'
  | 'rate_paise'
  | 'total_paise'
  | 'reason'
  | 'created_at'
>;

/** A ledger row as the API answers it: rupees, not paise (docs/product.md, Credits and the ledger). */
export function presentCreditTransaction(row: PresentableRow): CreditTransaction {
  return {
    _id: row.id,
    id: row.id,
    to: row.to_email,
    toName: row.to_name,
    by: row.by_email,
    byName: row.by_name,
    type: row.type,
    creditType: row.credit_type,
    count: Number(row.count),
    rate: row.rate_paise === null ? null : paiseToRupees(Number(row.rate_paise)),
    totalAmount: row.total_paise === null ? null : paiseToRupees(Number(row.total_paise)),
    reason: row.reason,
    createdAt: row.created_at.toISOString(),
  };
}

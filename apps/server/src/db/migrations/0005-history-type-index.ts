/**
 * Transaction History filtered by credit type (docs/performance.md, credit ledger history): a
 * page's ids come from this index alone, however far apart the type's entries lie in the ledger.
 */
export const sql = /* sql */ `
CREATE INDEX credit_transactions_type_idx ON credit_transactions (credit_type, id);
`;

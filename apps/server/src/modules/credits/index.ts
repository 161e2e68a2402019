/**
 * The credits module's public face for other modules beside its services: the data cleanup's
 * delete of ledger entries, with the carry-forward entries that keep every balance.
 */
export { cleanupLedger, type LedgerCleanup } from './carry-forward.repo.js';

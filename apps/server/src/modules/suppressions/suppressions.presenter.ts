import type { Suppression } from '@herald/contract';
import type { SuppressionRow } from './suppressions.repo.js';

/** A row as the contract's Suppression, its owner named. */
export function presentSuppression(row: SuppressionRow): Suppression {
  return {
    id: row.id,
    phone: row.phone,
    source: row.source,
    createdAt: row.created_at.toISOString(),
    owner: { id: row.owner_id, name: row.owner_name, email: row.owner_email },
  };
}

/** The export's cells of a row (EXPORT_HEADER's order). */
export function exportCells(row: SuppressionRow): string[] {
  return [row.phone, row.source, row.created_at.toISOString(), row.owner_email];
}

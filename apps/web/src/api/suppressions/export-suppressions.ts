import { ui } from '@herald/contract';
import { fetchFile, saveFile } from '../../lib/download';
import { suppressionsQuery, type SuppressionFilters } from './get-suppressions';

/** GET /api/suppressions/export: what the filters show, as CSV, saved by the browser. */
export async function exportSuppressions(f: SuppressionFilters): Promise<void> {
  const { search, ownerId } = suppressionsQuery(f);
  const query: Record<string, string> = {};
  if (search !== undefined) query.search = String(search);
  if (ownerId !== undefined) query.ownerId = String(ownerId);
  saveFile(
    await fetchFile('/suppressions/export', {
      fallbackName: ui.suppressions.exportFile,
      query,
      accept: 'text/csv',
    }),
  );
}

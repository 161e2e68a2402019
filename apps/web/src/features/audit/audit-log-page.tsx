import { useState } from 'react';
import { Card } from 'react-bootstrap';
import { auditUi as t } from '@herald/contract';
import { errorMessage } from '../../lib/api-client';
import { usePagedRows } from '../../components/use-paged-rows';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import {
  EMPTY_AUDIT_FILTERS,
  useAuditLog,
  type AuditFilterValues,
} from '../../api/audit/get-audit-log';
import { entriesOf } from './audit-data';
import { AuditFilters } from './audit-filters';
import { AuditTable } from './audit-table';

/** Typing in the Actor or Target filter asks again once the typing pauses. */
const TYPING_PAUSE_MS = 300;

/**
 * The Audit Log (docs/audit.md, The Audit Log screen): the entries the caller may see, newest
 * first, filtered, loaded as it scrolls, exported as CSV.
 */
export function AuditLogPage() {
  const [filters, setFilters] = useState<AuditFilterValues>(EMPTY_AUDIT_FILTERS);
  const query = useDebouncedValue(filters, TYPING_PAUSE_MS);
  const log = useAuditLog(query, true);
  const paged = usePagedRows(log, entriesOf);
  const loading = paged.loading || (log.isPlaceholderData && log.isFetching);

  return (
    <div>
      <h1 className="h3 mb-3">{t.title}</h1>
      <AuditFilters
        values={filters}
        onChange={setFilters}
        canExport={!loading && !paged.failed && paged.rows.length > 0}
      />
      <Card className="shadow-sm">
        <Card.Body>
          <AuditTable
            entries={paged.rows}
            loading={loading}
            error={paged.failed ? errorMessage(log.error, t.loadFailed) : null}
            more={paged.more}
          />
        </Card.Body>
      </Card>
    </div>
  );
}

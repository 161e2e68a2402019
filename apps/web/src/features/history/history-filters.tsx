import { memo } from 'react';
import { Alert, Button, Spinner } from 'react-bootstrap';
import { CREDIT_TRANSACTION_TYPES } from '@herald/contract';
import { FiltersCard, SearchFilter, SelectFilter } from '../../components/filters-card';
import { useSession } from '../../lib/auth-store';
import { formatBytes } from '../../lib/format';
import { useExportHistory } from '../../api/history/export-history';
import { EMPTY_HISTORY_FILTERS, type HistoryFilterValues } from '../../api/history/get-history';
import { creditTypeOptions, type HistoryLists } from './history-data';
import { useHistoryUserFilter } from './history-user-filter';

interface HistoryFiltersProps {
  values: HistoryFilterValues;
  onChange: (values: HistoryFilterValues) => void;
  users: HistoryLists['users'];
  creditTypes: HistoryLists['creditTypes'];
  /** False while loading or when there are no rows. */
  canExport: boolean;
}

/**
 * Transaction History's Filters card with Clear Filters and the .xlsx export of what the
 * filters select (docs/product.md, Credits and the ledger).
 */
export const HistoryFilters = memo(function HistoryFilters(props: HistoryFiltersProps) {
  const { values, onChange, users, creditTypes, canExport } = props;
  const exporter = useExportHistory();
  const userFilter = useHistoryUserFilter(useSession()?.user, users);
  const set = (key: keyof HistoryFilterValues) => (value: string) =>
    onChange({ ...values, [key]: value });

  return (
    <FiltersCard
      from={{
        controlId: 'history-start-date',
        label: 'Start Date',
        value: values.startDate,
        onChange: set('startDate'),
      }}
      to={{
        controlId: 'history-end-date',
        label: 'End Date',
        value: values.endDate,
        onChange: set('endDate'),
      }}
      onClear={() => onChange(EMPTY_HISTORY_FILTERS)}
      actions={
        <>
          <Button
            variant="success"
            disabled={!canExport || exporter.busy}
            onClick={() => void exporter.start(values)}
          >
            Export to Excel
          </Button>
          {exporter.busy && (
            <span className="d-inline-flex align-items-center gap-2 text-muted" role="status">
              <Spinner animation="border" size="sm" aria-hidden="true" />
              Preparing…
              {exporter.bytes !== null && exporter.bytes > 0 && (
                <span>{formatBytes(exporter.bytes)} received</span>
              )}
            </span>
          )}
        </>
      }
      footer={
        exporter.error && (
          <Alert variant="danger" className="mt-3 mb-0" dismissible onClose={exporter.dismiss}>
            {exporter.error}
          </Alert>
        )
      }
    >
      <SearchFilter
        controlId="history-user-email"
        label="User Email"
        emptyLabel="All Relevant Users"
        search={userFilter}
        value={values.userEmail}
        onChange={set('userEmail')}
      />
      <SelectFilter
        controlId="history-transaction-type"
        label="Transaction Type"
        placeholder="All Types"
        options={CREDIT_TRANSACTION_TYPES}
        value={values.transactionType}
        onChange={set('transactionType')}
      />
      <SelectFilter
        controlId="history-credit-type"
        label="Credit Type"
        placeholder="All Credit Types"
        options={creditTypeOptions(creditTypes, values.creditType)}
        value={values.creditType}
        onChange={set('creditType')}
      />
    </FiltersCard>
  );
});

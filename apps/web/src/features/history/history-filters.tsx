import { memo } from 'react';
import { Alert, Button, Card, Col, Row, Spinner } from 'react-bootstrap';
import { CREDIT_TRANSACTION_TYPES } from '@herald/contract';
import { SelectField, TextField } from '../../components/form-field';
import { SearchSelect } from '../../components/search-select';
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

/** The Filters card (spec 2.11 item 4) with Clear Filters and the .xlsx export (decisions 3). */
export const HistoryFilters = memo(function HistoryFilters(props: HistoryFiltersProps) {
  const { values, onChange, users, creditTypes, canExport } = props;
  const exporter = useExportHistory();
  const userFilter = useHistoryUserFilter(useSession()?.user, users);
  const set = (key: keyof HistoryFilterValues) => (value: string) =>
    onChange({ ...values, [key]: value });
  const clear = () => onChange(EMPTY_HISTORY_FILTERS);

  return (
    <Card className="shadow-sm mb-3">
      <Card.Header as="h2" className="h5 mb-0">
        Filters
      </Card.Header>
      <Card.Body>
        <Row className="g-3">
          <Col sm={6} lg>
            <TextField
              controlId="history-start-date"
              label="Start Date"
              type="date"
              className="mb-0"
              value={values.startDate}
              onChange={set('startDate')}
            />
          </Col>
          <Col sm={6} lg>
            <TextField
              controlId="history-end-date"
              label="End Date"
              type="date"
              className="mb-0"
              value={values.endDate}
              onChange={set('endDate')}
            />
          </Col>
          <Col sm={6} lg>
            <SearchSelect
              controlId="history-user-email"
              label="User Email"
              emptyLabel="All Relevant Users"
              className="mb-0"
              term={userFilter.term}
              onTermChange={userFilter.setTerm}
              options={userFilter.options}
              searching={userFilter.searching}
              value={values.userEmail}
              onChange={set('userEmail')}
            />
          </Col>
          <Col sm={6} lg>
            <SelectField
              controlId="history-transaction-type"
              label="Transaction Type"
              placeholder="All Types"
              className="mb-0"
              options={CREDIT_TRANSACTION_TYPES}
              value={values.transactionType}
              onChange={set('transactionType')}
            />
          </Col>
          <Col sm={6} lg>
            <SelectField
              controlId="history-credit-type"
              label="Credit Type"
              placeholder="All Credit Types"
              className="mb-0"
              options={creditTypeOptions(creditTypes, values.creditType)}
              value={values.creditType}
              onChange={set('creditType')}
            />
          </Col>
        </Row>
        <div className="d-flex flex-wrap align-items-center gap-2 mt-3">
          <Button variant="secondary" onClick={clear}>
            Clear Filters
          </Button>
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
        </div>
        {exporter.error && (
          <Alert variant="danger" className="mt-3 mb-0" dismissible onClose={exporter.dismiss}>
            {exporter.error}
          </Alert>
        )}
      </Card.Body>
    </Card>
  );
});

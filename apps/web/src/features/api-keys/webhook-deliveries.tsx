import { useEffect, useId } from 'react';
import { Alert, Button, Spinner } from 'react-bootstrap';
import {
  ui,
  type WebhookDelivery,
  type WebhookDeliveryPage,
  type WebhookEndpoint,
} from '@herald/contract';
import { DataTable, type Column } from '../../components/data-table';
import { LoadingSpinner } from '../../components/loading-spinner';
import { StatusBadge } from '../../components/status-badge';
import { usePagedRows } from '../../components/use-paged-rows';
import { formatDateTime } from '../../lib/format';
import { useWebhookDeliveries } from '../../api/webhooks/get-webhook-deliveries';
import { attemptStatus, keepPolling, TEST_POLL_EVERY_MS, type TestPoll } from './webhooks-logic';

const t = ui.webhooks;
const c = t.deliveryColumns;
const rowsOf = (page: WebhookDeliveryPage) => page.deliveries;
const WIDE_ONLY = 'd-none d-md-table-cell';

const columns: Column<WebhookDelivery>[] = [
  {
    header: c.time,
    cell: (d) => (
      <>
        <div className="text-nowrap">{formatDateTime(d.createdAt)}</div>
        {/* On a phone the event, duration and attempt go under the time, their columns hidden. */}
        <div className="small d-md-none font-monospace text-break">{d.eventType}</div>
        <div className="small text-muted d-md-none">
          {`${t.durationMs(d.durationMs)} · ${c.attempt} ${d.attempt}`}
        </div>
        {d.error && <div className="small text-muted text-break d-md-none">{d.error}</div>}
      </>
    ),
  },
  {
    header: c.event,
    className: WIDE_ONLY,
    cell: (d) => <span className="font-monospace small">{d.eventType}</span>,
  },
  {
    header: c.status,
    cell: (d) => {
      const shown = attemptStatus(d);
      return (
        <>
          <StatusBadge label={shown.label} variant={shown.variant} />
          {d.error && (
            <div className="small text-muted text-break d-none d-md-block">{d.error}</div>
          )}
        </>
      );
    },
  },
  { header: c.duration, className: WIDE_ONLY, cell: (d) => t.durationMs(d.durationMs) },
  {
    header: c.attempt,
    className: WIDE_ONLY,
    cell: (d) => (
      <>
        {d.attempt}
        {d.nextAttemptAt && (
          <div className="small text-muted">{t.nextAttempt(formatDateTime(d.nextAttemptAt))}</div>
        )}
      </>
    ),
  },
];

interface WebhookDeliveriesProps {
  endpoint: WebhookEndpoint;
  /** A test event this log waits for, if one was just sent to this endpoint. */
  poll: TestPoll | null;
  /** The newest delivery is newer than the one the poll started from (or it timed out). */
  onPollDone: () => void;
  /** The server's answer to the last test event, shown over the log. */
  testNotice: string | null;
  testBusy: boolean;
  onTest: () => void;
  onClose: () => void;
}

/**
 * One endpoint's delivery log under the list: time, event, status code (or why none came),
 * duration and attempt, newest first, with "Show more" for older pages. After "Send test event"
 * it is fetched each second until the test's delivery appears (15 s at most).
 */
export function WebhookDeliveries(props: WebhookDeliveriesProps) {
  const { endpoint, poll, onPollDone } = props;
  const headingId = useId();
  const query = useWebhookDeliveries(endpoint.id, (newest) =>
    keepPolling(poll, Date.now(), newest) ? TEST_POLL_EVERY_MS : false,
  );
  const paged = usePagedRows(query, rowsOf);
  const newest = paged.rows[0];
  useEffect(() => {
    if (poll && !query.isFetching && !keepPolling(poll, Date.now(), newest)) onPollDone();
  }, [poll, newest, query.isFetching, onPollDone]);

  return (
    <section className="border rounded p-3 mt-3" aria-labelledby={headingId}>
      <div className="d-flex flex-wrap gap-2 justify-content-between align-items-start mb-2">
        <h3 id={headingId} className="h6 mb-0 text-break">
          {t.deliveriesTitle(endpoint.url)}
        </h3>
        <div className="d-flex gap-2">
          <Button
            size="sm"
            variant="outline-primary"
            disabled={props.testBusy || !endpoint.enabled}
            onClick={props.onTest}
          >
            {(props.testBusy || poll) && <Spinner size="sm" className="me-1" aria-hidden="true" />}
            {t.actions.test}
          </Button>
          <Button size="sm" variant="outline-secondary" onClick={props.onClose}>
            {t.deliveriesClose}
          </Button>
        </div>
      </div>
      <div role="status" className="small text-muted mb-2">
        {props.testNotice ?? ''}
      </div>
      {paged.loading ? (
        <LoadingSpinner label={t.deliveriesLoading} />
      ) : paged.failed ? (
        <Alert variant="danger" className="mb-0">
          {t.deliveriesFailed}
        </Alert>
      ) : (
        <DataTable
          aria-label={t.deliveriesLabel}
          columns={columns}
          rows={paged.rows}
          rowKey={(d) => d.id}
          emptyText={t.deliveriesEmpty}
        />
      )}
      {paged.more.hasNextPage && (
        <div className="text-center mt-2">
          <Button
            size="sm"
            variant="outline-secondary"
            disabled={paged.more.isFetchingMore}
            onClick={paged.more.onLoadMore}
          >
            {paged.more.isFetchingMore && <Spinner size="sm" className="me-1" aria-hidden="true" />}
            {t.showMore}
          </Button>
        </div>
      )}
      {paged.more.moreFailed && (
        <Alert variant="danger" className="mt-2 mb-0">
          {t.deliveriesFailed}
        </Alert>
      )}
    </section>
  );
}

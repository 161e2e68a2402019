import { useCallback, useId, useState } from 'react';
import { Alert, Button, Col, Modal, Row, Spinner } from 'react-bootstrap';
import {
  SIMULATED_DELIVERY_NOTICE,
  ui,
  type Campaign,
  type ReportFilter,
  formatCount,
} from '@herald/contract';
import { LoadingSpinner } from '../../../components/loading-spinner';
import { errorMessage } from '../../../lib/api-client';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { exportCampaignReport } from '../../../api/campaigns/export-campaign-report';
import { useCampaignReport, type ReportView } from '../../../api/campaigns/get-campaign-report';
import { ReportControls } from './report-controls';
import { ReportEntries } from './report-entries';

/** The search is sent once typing pauses this long. */
const SEARCH_DEBOUNCE_MS = 300;

function Tile({ label, value, variant }: { label: string; value: number; variant: string }) {
  return (
    <Col xs={4}>
      <div className={`border rounded p-2 text-center border-${variant}`}>
        <div className={`fs-4 fw-bold text-${variant}`}>{formatCount(value)}</div>
        <div className="small text-muted">{label}</div>
      </div>
    </Col>
  );
}

function useExport(id: string) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const start = async (view: ReportView) => {
    setBusy(true);
    setError(null);
    try {
      await exportCampaignReport(id, view);
    } catch (err) {
      setError(errorMessage(err, ui.reports.loadFailed));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, start };
}

/**
 * The delivery report of one campaign: Delivered/Failed/Total of the whole report, a status
 * filter and number search, each recipient of the filter with a badge (Delivered green,
 * otherwise red), the provider's reason and the last change, loaded page by page as the list
 * scrolls, and the CSV of what the filter shows.
 */
export function CampaignReportDialog({
  campaign,
  onHide,
}: {
  campaign: Campaign;
  onHide: () => void;
}) {
  const titleId = useId();
  const [status, setStatus] = useState<ReportFilter>('all');
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const view: ReportView = { status, q };
  const filtered = status !== 'all' || q !== '';
  const report = useCampaignReport(campaign._id, view);
  const exporter = useExport(campaign._id);
  const { fetchNextPage, hasNextPage, isFetching, isFetchNextPageError } = report;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetching) void fetchNextPage();
  }, [fetchNextPage, hasNextPage, isFetching]);

  const loadFailed = report.isError && !isFetchNextPageError;
  const summary = report.data?.pages[0]?.summary;
  let body;
  if (report.isPending) body = <LoadingSpinner label="Loading report..." />;
  else if (loadFailed || !summary) {
    body = <Alert variant="danger">{errorMessage(report.error, ui.reports.loadFailed)}</Alert>;
  } else {
    body = (
      <>
        {campaign.delivery?.simulated && (
          <Alert variant="warning" className="py-2 small">
            {SIMULATED_DELIVERY_NOTICE}
          </Alert>
        )}
        <Row className="g-2 mb-3" aria-label="Report summary">
          <Tile label="Delivered" value={summary.delivered} variant="success" />
          <Tile label="Failed" value={summary.failed} variant="danger" />
          <Tile label="Total" value={summary.total} variant="secondary" />
        </Row>
        <ReportControls status={status} onStatus={setStatus} search={search} onSearch={setSearch} />
        <ReportEntries
          pages={report.data.pages}
          hasNextPage={hasNextPage}
          isFetchingMore={report.isFetchingNextPage}
          moreFailed={isFetchNextPageError}
          onLoadMore={loadMore}
        />
      </>
    );
  }

  return (
    <Modal aria-labelledby={titleId} show onHide={onHide} size="lg">
      <Modal.Header closeButton>
        <Modal.Title id={titleId} as="h2" className="h5">
          Delivery Report
          <div className="small text-muted fw-normal">
            {campaign.name} · {campaign.userName} · {campaign.creditType}
          </div>
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {body}
        {exporter.error && (
          <Alert variant="danger" className="mt-3 mb-0">
            {exporter.error}
          </Alert>
        )}
      </Modal.Body>
      <Modal.Footer>
        {filtered && <div className="small text-muted me-auto">{ui.reports.exportNote}</div>}
        <Button
          variant="success"
          disabled={exporter.busy || !summary}
          onClick={() => void exporter.start(view)}
        >
          {exporter.busy && <Spinner size="sm" className="me-2" aria-hidden="true" />}
          {filtered ? ui.reports.exportFiltered : ui.reports.exportAll}
        </Button>
        <Button variant="secondary" onClick={onHide}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

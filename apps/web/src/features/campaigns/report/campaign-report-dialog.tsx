import { useCallback, useId, useState } from 'react';
import { Alert, Button, Col, Modal, Row, Spinner } from 'react-bootstrap';
import { SIMULATED_DELIVERY_NOTICE, ui, type Campaign } from '@herald/contract';
import { LoadingSpinner } from '../../../components/loading-spinner';
import { errorMessage } from '../../../lib/api-client';
import { exportCampaignReport } from '../../../api/campaigns/export-campaign-report';
import { useCampaignReport } from '../../../api/campaigns/get-campaign-report';
import { ReportEntries } from './report-entries';

function Tile({ label, value, variant }: { label: string; value: number; variant: string }) {
  return (
    <Col xs={4}>
      <div className={`border rounded p-2 text-center border-${variant}`}>
        <div className={`fs-4 fw-bold text-${variant}`}>{value.toLocaleString()}</div>
        <div className="small text-muted">{label}</div>
      </div>
    </Col>
  );
}

function useExport(id: string) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      await exportCampaignReport(id);
    } catch (err) {
      setError(errorMessage(err, ui.reports.loadFailed));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, start };
}

/**
 * The delivery report of one campaign: Delivered/Failed/Total, each recipient with
 * a badge (Delivered green, otherwise red) loaded page by page as the list scrolls, and the CSV.
 */
export function CampaignReportDialog({
  campaign,
  onHide,
}: {
  campaign: Campaign;
  onHide: () => void;
}) {
  const titleId = useId();
  const report = useCampaignReport(campaign._id);
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
        <Button
          variant="success"
          disabled={exporter.busy || !summary}
          onClick={() => void exporter.start()}
        >
          {exporter.busy && <Spinner size="sm" className="me-2" aria-hidden="true" />}
          Export Report to CSV
        </Button>
        <Button variant="secondary" onClick={onHide}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

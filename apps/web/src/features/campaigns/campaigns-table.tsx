import { memo } from 'react';
import { Button, Dropdown, Spinner, Table } from 'react-bootstrap';
import { CAMPAIGN_STATUS_VARIANTS, type Campaign, type CampaignList } from '@herald/contract';
import { RowActionsMenu } from '../../components/row-actions-menu';
import { StatusBadge } from '../../components/status-badge';
import { ACTION_LABELS, type CampaignAction } from './campaign-actions';
import { useLoadMore } from '../../components/use-load-more';
import type { PagedMore } from '../../components/use-paged-rows';
import { DeliveryProgressCell } from './delivery/delivery-progress';

export type OnCampaignAction = (action: CampaignAction, campaign: Campaign) => void;

interface RowProps {
  campaign: Campaign;
  actions: readonly CampaignAction[];
  downloading: boolean;
  onAction: OnCampaignAction;
}

/** Date over time, so the column stays narrow. */
function CreatedAt({ iso }: { iso: string }) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return <>-</>;
  return (
    <>
      <div className="text-nowrap">{d.toLocaleDateString()}</div>
      <div className="text-nowrap small text-muted">{d.toLocaleTimeString()}</div>
    </>
  );
}

const CampaignRow = memo(function CampaignRow(props: RowProps) {
  const { campaign: c, actions, downloading, onAction } = props;
  return (
    <tr>
      <td>
        <CreatedAt iso={c.createdAt} />
      </td>
      <td>
        <div className="fw-semibold text-break">{c.name}</div>
        <div>{c.userName}</div>
        <div className="small text-muted text-break">{c.userEmail}</div>
      </td>
      <td className="small text-break">{c.createdBy}</td>
      <td className="small">{c.creditType}</td>
      <td className="text-end">{c.recipientCount.toLocaleString()}</td>
      <td>
        <StatusBadge label={c.status} variant={CAMPAIGN_STATUS_VARIANTS[c.status]} />
      </td>
      <td>
        <DeliveryProgressCell delivery={c.delivery} />
      </td>
      <td>
        <RowActionsMenu disabled={downloading} busy={downloading}>
          {actions.map((a) => (
            <Dropdown.Item key={a} as="button" onClick={() => onAction(a, c)}>
              {ACTION_LABELS[a](c)}
            </Dropdown.Item>
          ))}
        </RowActionsMenu>
      </td>
    </tr>
  );
});

interface PageRowsProps {
  rows: readonly Campaign[];
  actionsFor: (c: Campaign) => CampaignAction[];
  downloadingId: string | null;
  onAction: OnCampaignAction;
}

/** One fetched page; pages already loaded keep their identity, so appending renders only the new. */
const PageRows = memo(function PageRows({
  rows,
  actionsFor,
  downloadingId,
  onAction,
}: PageRowsProps) {
  return rows.map((c) => (
    <CampaignRow
      key={c._id}
      campaign={c}
      actions={actionsFor(c)}
      downloading={downloadingId === c._id}
      onAction={onAction}
    />
  ));
});

interface CampaignsTableProps extends PagedMore {
  pages: readonly CampaignList[];
  /** Must be stable (module-level or memoized): rows re-render when it changes. */
  actionsFor: (c: Campaign) => CampaignAction[];
  onAction: OnCampaignAction;
  downloadingId: string | null;
  'aria-label'?: string;
}

/** The campaigns table, loading the next keyset page as its end nears. */
export function CampaignsTable(props: CampaignsTableProps) {
  const { pages, hasNextPage, isFetchingMore, moreFailed, onLoadMore } = props;
  const sentinel = useLoadMore(hasNextPage && !isFetchingMore && !moreFailed, onLoadMore);
  return (
    <>
      <Table
        striped
        hover
        responsive
        className="mb-0 align-middle"
        aria-label={props['aria-label'] ?? 'Campaigns'}
      >
        <thead>
          <tr>
            <th className="text-nowrap">Created At</th>
            <th className="text-nowrap">Campaign For</th>
            <th className="text-nowrap">Created By</th>
            <th>Type</th>
            <th className="text-end">Recipients</th>
            <th>Status</th>
            <th>Delivery</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {pages.map((page, i) => (
            <PageRows
              key={i}
              rows={page.campaigns}
              actionsFor={props.actionsFor}
              downloadingId={props.downloadingId}
              onAction={props.onAction}
            />
          ))}
        </tbody>
      </Table>
      <div ref={sentinel} aria-hidden="true" />
      <div className="text-center small text-muted mt-3">
        {isFetchingMore ? (
          <Spinner animation="border" size="sm" role="status">
            <span className="visually-hidden">Loading more campaigns...</span>
          </Spinner>
        ) : moreFailed ? (
          <span className="d-inline-flex align-items-center gap-2">
            Could not load more campaigns.
            <Button size="sm" variant="outline-secondary" onClick={onLoadMore}>
              Try again
            </Button>
          </span>
        ) : hasNextPage ? (
          <Button size="sm" variant="outline-secondary" onClick={onLoadMore}>
            Load more
          </Button>
        ) : null}
      </div>
    </>
  );
}

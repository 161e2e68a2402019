import { memo } from 'react';
import { Button, Dropdown, Form, Spinner, Table } from 'react-bootstrap';
import {
  CAMPAIGN_STATUS_VARIANTS,
  type Campaign,
  type CampaignList,
  formatCount,
} from '@herald/contract';
import { RowActionsMenu } from '../../components/row-actions-menu';
import { StatusBadge } from '../../components/status-badge';
import { ScheduledFor } from './scheduled-for';
import { ACTION_LABELS, type CampaignAction } from './campaign-actions';
import { useLoadMore } from '../../components/use-load-more';
import type { PagedMore } from '../../components/use-paged-rows';
import { DeliveryProgressCell } from './delivery/delivery-progress';
import { TestBadge } from '../../components/test-badge';
import { ScrollBox } from '../../components/scroll-box';
import { formatDate } from '../../lib/format';

export type OnCampaignAction = (action: CampaignAction, campaign: Campaign) => void;

/**
 * Row checkboxes for the Admin's "Approve selected": only the rows `selectable` admits get
 * one. `onToggle` must be stable (rows re-render when it changes).
 */
export interface CampaignSelection {
  selected: ReadonlySet<string>;
  selectable: (c: Campaign) => boolean;
  onToggle: (ids: readonly string[], on: boolean) => void;
}

interface RowProps {
  campaign: Campaign;
  actions: readonly CampaignAction[];
  downloading: boolean;
  onAction: OnCampaignAction;
  /** undefined: no checkbox column; null: a column but no checkbox on this row. */
  checked: boolean | null | undefined;
  onToggle: CampaignSelection['onToggle'] | undefined;
}

/** Date over time, so the column stays narrow. */
function CreatedAt({ iso }: { iso: string }) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return <>-</>;
  return (
    <>
      <div className="text-nowrap">{formatDate(iso)}</div>
      <div className="text-nowrap small text-muted">{d.toLocaleTimeString()}</div>
    </>
  );
}

const CampaignRow = memo(function CampaignRow(props: RowProps) {
  const { campaign: c, actions, downloading, onAction, checked, onToggle } = props;
  return (
    <tr>
      {checked !== undefined && (
        <td>
          {checked !== null && (
            <Form.Check
              aria-label={`Select the campaign for ${c.userName}`}
              checked={checked}
              onChange={(e) => onToggle?.([c._id], e.target.checked)}
            />
          )}
        </td>
      )}
      <td>
        <CreatedAt iso={c.createdAt} />
      </td>
      <td>
        <div className="fw-semibold text-break">
          {c.name}
          <TestBadge test={c.test} />
        </div>
        <div>{c.userName}</div>
        <div className="small text-muted text-break">{c.userEmail}</div>
      </td>
      <td className="small text-break">{c.createdBy}</td>
      <td className="small">{c.creditType}</td>
      <td className="text-end">{formatCount(c.recipientCount)}</td>
      <td>
        <StatusBadge label={c.status} variant={CAMPAIGN_STATUS_VARIANTS[c.status]} />
        <ScheduledFor campaign={c} />
      </td>
      <td>
        <DeliveryProgressCell campaign={c} />
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
  selection: CampaignSelection | undefined;
}

function checkedOf(c: Campaign, selection: CampaignSelection | undefined) {
  if (!selection) return undefined;
  return selection.selectable(c) ? selection.selected.has(c._id) : null;
}

/** One fetched page; pages already loaded keep their identity, so appending renders only the new. */
const PageRows = memo(function PageRows({
  rows,
  actionsFor,
  downloadingId,
  onAction,
  selection,
}: PageRowsProps) {
  return rows.map((c) => (
    <CampaignRow
      key={c._id}
      campaign={c}
      actions={actionsFor(c)}
      downloading={downloadingId === c._id}
      onAction={onAction}
      checked={checkedOf(c, selection)}
      onToggle={selection?.onToggle}
    />
  ));
});

interface CampaignsTableProps extends PagedMore {
  pages: readonly CampaignList[];
  /** Must be stable (module-level or memoized): rows re-render when it changes. */
  actionsFor: (c: Campaign) => CampaignAction[];
  onAction: OnCampaignAction;
  downloadingId: string | null;
  /** The Admin's row checkboxes; without it the table has no checkbox column. */
  selection?: CampaignSelection | undefined;
  'aria-label'?: string;
}

/** The header's checkbox: every selectable row loaded so far, on or off. */
function SelectAll({
  pages,
  selection,
}: {
  pages: readonly CampaignList[];
  selection: CampaignSelection;
}) {
  const ids = pages.flatMap((p) => p.campaigns.filter(selection.selectable).map((c) => c._id));
  const all = ids.length > 0 && ids.every((id) => selection.selected.has(id));
  return (
    <Form.Check
      aria-label="Select every campaign awaiting approval"
      checked={all}
      disabled={ids.length === 0}
      onChange={(e) => selection.onToggle(ids, e.target.checked)}
    />
  );
}

/** The campaigns table, loading the next keyset page as its end nears. */
export function CampaignsTable(props: CampaignsTableProps) {
  const { pages, hasNextPage, isFetchingMore, moreFailed, onLoadMore, selection } = props;
  const sentinel = useLoadMore(hasNextPage && !isFetchingMore && !moreFailed, onLoadMore);
  return (
    <>
      <ScrollBox label={props['aria-label'] ?? 'Campaigns'}>
        <Table
          striped
          hover
          className="mb-0 align-middle"
          aria-label={props['aria-label'] ?? 'Campaigns'}
        >
          <thead>
            <tr>
              {selection && (
                <th>
                  <SelectAll pages={pages} selection={selection} />
                </th>
              )}
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
                selection={selection}
              />
            ))}
          </tbody>
        </Table>
      </ScrollBox>
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

import { Dropdown } from 'react-bootstrap';
import { ui, type WebhookEndpoint } from '@herald/contract';
import type { Column } from '../../components/data-table';
import { RowActionsMenu } from '../../components/row-actions-menu';
import { StatusBadge } from '../../components/status-badge';
import { formatDateTime } from '../../lib/format';
import { attemptStatus, endpointStatus } from './webhooks-logic';

const t = ui.webhooks;
const c = t.columns;
/** A column shown from Bootstrap's md width up (a phone reads it under the URL). */
const WIDE_ONLY = 'd-none d-md-table-cell';

export type WebhookAction = 'deliveries' | 'test' | 'edit' | 'toggle' | 'rotate' | 'delete';

function LastDelivery({ e }: { e: WebhookEndpoint }) {
  if (!e.lastAttempt) return <span className="text-muted">{t.noDelivery}</span>;
  const shown = attemptStatus(e.lastAttempt);
  return (
    <>
      <StatusBadge label={shown.label} variant={shown.variant} />{' '}
      <span className="small text-muted">{formatDateTime(e.lastAttempt.at)}</span>
    </>
  );
}

/** The endpoints table's columns; `busy` is the id of the endpoint whose action runs. */
export function webhookColumns(
  act: (e: WebhookEndpoint, action: WebhookAction) => void,
  busy: string | null,
): Column<WebhookEndpoint>[] {
  return [
    {
      header: c.url,
      cell: (e) => (
        <>
          <div className="text-break font-monospace small">{e.url}</div>
          {e.description && <div className="small text-muted text-break">{e.description}</div>}
          {/* On a phone the events and the last delivery go under the URL, their columns hidden. */}
          <div className="small text-muted d-md-none text-break">{e.events.join(', ')}</div>
          <div className="small d-md-none">
            <LastDelivery e={e} />
          </div>
        </>
      ),
    },
    {
      header: c.events,
      className: WIDE_ONLY,
      cell: (e) => (
        <ul className="list-unstyled mb-0 small font-monospace">
          {e.events.map((event) => (
            <li key={event}>{event}</li>
          ))}
        </ul>
      ),
    },
    {
      header: c.status,
      cell: (e) => {
        const shown = endpointStatus(e, formatDateTime);
        return (
          <>
            <StatusBadge label={shown.label} variant={shown.variant} />
            {shown.detail && <div className="small text-muted">{shown.detail}</div>}
          </>
        );
      },
    },
    { header: c.last, className: WIDE_ONLY, cell: (e) => <LastDelivery e={e} /> },
    {
      header: c.actions,
      className: 'text-end',
      cell: (e) => (
        <RowActionsMenu busy={busy === e.id}>
          <Dropdown.Item as="button" onClick={() => act(e, 'deliveries')}>
            {t.actions.deliveries}
          </Dropdown.Item>
          <Dropdown.Item as="button" disabled={!e.enabled} onClick={() => act(e, 'test')}>
            {t.actions.test}
          </Dropdown.Item>
          <Dropdown.Item as="button" onClick={() => act(e, 'edit')}>
            {t.actions.edit}
          </Dropdown.Item>
          <Dropdown.Item as="button" onClick={() => act(e, 'toggle')}>
            {e.enabled ? t.actions.disable : t.actions.enable}
          </Dropdown.Item>
          <Dropdown.Item as="button" onClick={() => act(e, 'rotate')}>
            {t.actions.rotate}
          </Dropdown.Item>
          <Dropdown.Item as="button" className="text-danger" onClick={() => act(e, 'delete')}>
            {t.actions.delete}
          </Dropdown.Item>
        </RowActionsMenu>
      ),
    },
  ];
}

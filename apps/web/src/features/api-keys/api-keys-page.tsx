import { useState } from 'react';
import { Badge, Card, Dropdown } from 'react-bootstrap';
import { ui, type ApiKey, type ApiKeyPage } from '@herald/contract';
import { useSession } from '../../lib/auth-store';
import { errorMessage } from '../../lib/api-client';
import { formatDate, formatDateTime } from '../../lib/format';
import type { Column } from '../../components/data-table';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { PagedTable } from '../../components/paged-table';
import { RowActionsMenu } from '../../components/row-actions-menu';
import { usePagedRows } from '../../components/use-paged-rows';
import { useApiKeys } from '../../api/api-keys/get-api-keys';
import { useRevokeApiKey } from '../../api/api-keys/revoke-api-key';
import { kindLabel, maskedKey } from './api-keys-logic';
import { CreateKeyForm } from './create-key-form';
import { WebhooksSection } from './webhooks-section';

const t = ui.apiKeys;
const rowsOf = (page: ApiKeyPage) => page.keys;
/** A column shown from Bootstrap's md width up (a phone reads it under the name). */
const WIDE_ONLY = 'd-none d-md-table-cell';

/**
 * API & Webhooks (docs/api.md): the caller's API keys, made here (the secret shown once), listed
 * by name, kind, last four characters, creation and last use, and revoked after a confirmation.
 * The Admin sees every user's keys, with the owner, and may revoke any. Below them, the caller's
 * own webhook endpoints (WebhooksSection).
 */
export function ApiKeysPage() {
  const session = useSession();
  const isAdmin = session?.user.role === 'Admin';
  const list = useApiKeys();
  const paged = usePagedRows(list, rowsOf);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const revoke = useRevokeApiKey();
  if (!session) return null; // the route guard sends visitors without a session to /login

  const columns: Column<ApiKey>[] = [
    {
      header: t.columns.name,
      cell: (k) => (
        <>
          <div className="text-break">{k.name}</div>
          {/* On a phone the key and its dates go under the name, their columns hidden. */}
          <div className="small text-muted d-md-none">
            <span className="font-monospace">{maskedKey(k.kind, k.last4)}</span>
            {` · ${formatDate(k.createdAt)} · ${t.columns.lastUsedAt}: ${lastUsed(k)}`}
          </div>
        </>
      ),
    },
    {
      header: t.columns.kind,
      cell: (k) => (
        <Badge bg={k.kind === 'live' ? 'primary' : 'secondary'}>{kindLabel(k.kind)}</Badge>
      ),
    },
    {
      header: t.columns.key,
      className: WIDE_ONLY,
      cell: (k) => <span className="font-monospace">{maskedKey(k.kind, k.last4)}</span>,
    },
    ...(isAdmin ? [{ header: t.columns.owner, cell: (k: ApiKey) => <OwnerCell k={k} /> }] : []),
    { header: t.columns.createdAt, className: WIDE_ONLY, cell: (k) => formatDate(k.createdAt) },
    { header: t.columns.lastUsedAt, className: WIDE_ONLY, cell: lastUsed },
    {
      header: t.columns.actions,
      className: 'text-end',
      cell: (k) => (
        <RowActionsMenu busy={revoke.isPending && revoke.variables === k.id}>
          <Dropdown.Item as="button" onClick={() => setRevoking(k)}>
            {t.revokeLabel(k.name)}
          </Dropdown.Item>
        </RowActionsMenu>
      ),
    },
  ];

  return (
    <div>
      <h1 className="h3 mb-2">{t.title}</h1>
      <p className="text-muted mb-1">{t.intro}</p>
      {isAdmin && <p className="text-muted">{t.adminIntro}</p>}
      <Card className="shadow-sm mb-3 mt-3">
        <Card.Body>
          <h2 className="h5 mb-3">{t.createTitle}</h2>
          <CreateKeyForm />
        </Card.Body>
      </Card>
      <Card className="shadow-sm">
        <Card.Body>
          <h2 className="h5 mb-3">{t.listTitle}</h2>
          {revoke.isError && (
            <div className="alert alert-danger" role="alert">
              {errorMessage(revoke.error, t.revokeFailed)}
            </div>
          )}
          <PagedTable
            loading={paged.loading}
            loadingLabel="Loading the API keys..."
            error={paged.failed ? t.loadFailed : null}
            aria-label={t.listTitle}
            columns={columns}
            rows={paged.rows}
            rowKey={(k) => k.id}
            emptyText={t.empty}
            more={paged.more}
            noun="keys"
            endText="End of the list"
          />
        </Card.Body>
      </Card>
      <WebhooksSection />
      <ConfirmDialog
        show={revoking !== null}
        title={t.revokeTitle}
        confirmLabel={t.revokeButton}
        variant="danger"
        busy={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() => {
          if (!revoking) return;
          revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) });
        }}
      >
        {revoking ? t.revokeConfirm(revoking.name) : ''}
      </ConfirmDialog>
    </div>
  );
}

function lastUsed(k: ApiKey): string {
  return k.lastUsedAt ? formatDateTime(k.lastUsedAt) : t.neverUsed;
}

/** The owner's name, its email under it (broken anywhere, so a long one never widens the row). */
function OwnerCell({ k }: { k: ApiKey }) {
  return (
    <>
      {k.owner.name && <div>{k.owner.name}</div>}
      <div className="small text-muted text-break">{k.owner.email}</div>
    </>
  );
}

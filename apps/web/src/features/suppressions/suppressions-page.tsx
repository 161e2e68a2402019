import { useState } from 'react';
import { Card, Col, Dropdown, Form, Row } from 'react-bootstrap';
import {
  USER_SEARCH_DEBOUNCE_MS,
  ui,
  type Suppression,
  type SuppressionPage,
} from '@herald/contract';
import { useSession } from '../../lib/auth-store';
import { errorMessage } from '../../lib/api-client';
import { formatDate } from '../../lib/format';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import type { Column } from '../../components/data-table';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { PagedTable } from '../../components/paged-table';
import { RowActionsMenu } from '../../components/row-actions-menu';
import { SearchSelect } from '../../components/search-select';
import { usePagedRows } from '../../components/use-paged-rows';
import { useSuppressions } from '../../api/suppressions/get-suppressions';
import { useRemoveSuppression } from '../../api/suppressions/remove-suppression';
import { useUserSearch } from '../../api/users/get-users';
import { SuppressionTools } from './suppression-tools';
import { ownerFilterOptions, searchDigits, sourceLabel } from './suppressions-logic';

const t = ui.suppressions;
const rowsOf = (page: SuppressionPage) => page.suppressions;
/** A column shown from Bootstrap's md width up (a phone reads it under the number). */
const WIDE_ONLY = 'd-none d-md-table-cell';

/**
 * The Suppression List (docs/product.md, Opt-outs): the numbers the caller's campaigns never
 * send to, searched by part of the number, added and removed by hand, imported and exported as
 * CSV. The Admin sees everyone's, with the owner and a filter by owner.
 */
export function SuppressionsPage() {
  const session = useSession();
  const isAdmin = session?.user.role === 'Admin';
  const [term, setTerm] = useState('');
  const search = useDebouncedValue(searchDigits(term), USER_SEARCH_DEBOUNCE_MS);
  const [ownerId, setOwnerId] = useState('');
  const [ownerTerm, setOwnerTerm] = useState('');
  const owners = useUserSearch(ownerTerm, isAdmin);
  const filters = { search, ownerId };
  const list = useSuppressions(filters);
  const paged = usePagedRows(list, rowsOf);
  const [removing, setRemoving] = useState<Suppression | null>(null);
  const remove = useRemoveSuppression();
  if (!session) return null; // the route guard sends visitors without a session to /login

  const columns: Column<Suppression>[] = [
    {
      header: t.columns.phone,
      cell: (s) => (
        <>
          <span className="font-monospace">{s.phone}</span>
          {/* On a phone the source and day go under the number, their columns hidden. */}
          <div className="small text-muted d-md-none">{`${sourceLabel(s.source)} · ${formatDate(s.createdAt)}`}</div>
        </>
      ),
    },
    ...(isAdmin
      ? [{ header: t.columns.owner, cell: (s: Suppression) => <OwnerCell s={s} /> }]
      : []),
    { header: t.columns.source, className: WIDE_ONLY, cell: (s) => sourceLabel(s.source) },
    // The day only: the row stays narrow.
    { header: t.columns.createdAt, className: WIDE_ONLY, cell: (s) => formatDate(s.createdAt) },
    {
      header: t.columns.actions,
      className: 'text-end',
      cell: (s) => (
        <RowActionsMenu busy={remove.isPending && remove.variables === s.id}>
          <Dropdown.Item as="button" onClick={() => setRemoving(s)}>
            {t.removeLabel(s.phone)}
          </Dropdown.Item>
        </RowActionsMenu>
      ),
    },
  ];

  return (
    <div>
      <h1 className="h3 mb-2">{t.title}</h1>
      <p className="text-muted">{t.intro}</p>
      <Card className="shadow-sm">
        <Card.Body>
          <SuppressionTools filters={filters} />
          <Row className="g-3 mb-3">
            <Col sm={6} lg={4}>
              <Form.Group controlId="suppressions-search">
                <Form.Label>{t.searchLabel}</Form.Label>
                <Form.Control
                  type="search"
                  inputMode="numeric"
                  value={term}
                  onChange={(e) => setTerm(e.target.value)}
                />
              </Form.Group>
            </Col>
            {isAdmin && (
              <Col sm={6} lg={4}>
                <SearchSelect
                  className="mb-0"
                  controlId="suppressions-owner"
                  label={t.ownerFilterLabel}
                  emptyLabel={t.allOwners}
                  value={ownerId}
                  onChange={setOwnerId}
                  term={ownerTerm}
                  onTermChange={setOwnerTerm}
                  options={ownerFilterOptions(owners.data)}
                  searching={owners.searching}
                />
              </Col>
            )}
          </Row>
          {remove.isError && (
            <div className="alert alert-danger" role="alert">
              {errorMessage(remove.error, t.removeFailed)}
            </div>
          )}
          <PagedTable
            loading={paged.loading}
            loadingLabel="Loading the suppression list..."
            error={paged.failed ? t.loadFailed : null}
            aria-label={t.title}
            columns={columns}
            rows={paged.rows}
            rowKey={(s) => s.id}
            emptyText={search || ownerId ? t.noMatches : t.empty}
            more={paged.more}
            noun="numbers"
            endText="End of the list"
          />
        </Card.Body>
      </Card>
      <ConfirmDialog
        show={removing !== null}
        title={t.removeTitle}
        confirmLabel="Remove"
        variant="danger"
        busy={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (!removing) return;
          remove.mutate(removing.id, { onSettled: () => setRemoving(null) });
        }}
      >
        {removing ? t.removeConfirm(removing.phone) : ''}
      </ConfirmDialog>
    </div>
  );
}

/** The owner's name, its email under it (broken anywhere, so a long one never widens the row). */
function OwnerCell({ s }: { s: Suppression }) {
  return (
    <>
      {s.owner.name && <div>{s.owner.name}</div>}
      <div className="small text-muted text-break">{s.owner.email}</div>
    </>
  );
}

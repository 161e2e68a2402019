import { useCallback, useMemo, useState } from 'react';
import { Alert, Button, Card } from 'react-bootstrap';
import { ui, type AdminAnnouncement } from '@herald/contract';
import { formatDate, formatDateTime } from '../../lib/format';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type Column } from '../../components/data-table';
import { LoadingSpinner } from '../../components/loading-spinner';
import { LoadMoreFooter } from '../../components/load-more-footer';
import { useAllAnnouncements } from '../../api/announcements/get-all-announcements';
import { useDeleteAnnouncement } from '../../api/announcements/delete-announcement';
import { VISIBILITY_OPTIONS } from './announcement-form-logic';
import { failure, OutcomeAlert, type Outcome } from './outcome-alert';

const visibilityLabel = (a: AdminAnnouncement) => {
  const label = VISIBILITY_OPTIONS.find((o) => o.value === a.visibility.type)?.label ?? '';
  return a.visibility.type === 'specific' ? `${label}: ${a.visibility.targets.join(', ')}` : label;
};

/** Every announcement (Admin), newest first, each with Delete behind a confirmation. */
export function AnnouncementsTable() {
  const list = useAllAnnouncements();
  const remove = useDeleteAnnouncement();
  const [pending, setPending] = useState<AdminAnnouncement | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const { fetchNextPage, hasNextPage, isFetching, isFetchNextPageError } = list;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetching) void fetchNextPage();
  }, [fetchNextPage, hasNextPage, isFetching]);
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.announcements) ?? [], [list.data]);

  const columns: Column<AdminAnnouncement>[] = [
    { header: 'Title', cell: (a) => a.title },
    { header: 'Visibility', cell: visibilityLabel },
    { header: 'Created At', cell: (a) => formatDateTime(a.createdAt) },
    { header: 'Expiry Date', cell: (a) => formatDate(a.expiryDate) },
    {
      header: 'Actions',
      cell: (a) => (
        <Button
          size="sm"
          variant="outline-danger"
          aria-label={`Delete ${a.title}`}
          onClick={() => setPending(a)}
        >
          Delete
        </Button>
      ),
    },
  ];

  function confirmDelete() {
    if (!pending) return;
    remove.mutate(pending._id, {
      onSuccess: () => setOutcome({ ok: true, text: ui.announcements.deleted }),
      onError: (err) => setOutcome(failure(err, ui.announcements.deleteFailed)),
      onSettled: () => setPending(null),
    });
  }

  return (
    <Card className="shadow-sm">
      <Card.Header as="h2" className="h5 mb-0">
        Existing Announcements
      </Card.Header>
      <Card.Body>
        {outcome && <OutcomeAlert outcome={outcome} onClose={() => setOutcome(null)} />}
        {list.isPending ? (
          <LoadingSpinner label="Loading announcements..." />
        ) : list.isError && !isFetchNextPageError ? (
          <Alert variant="danger" className="mb-0">
            {ui.announcements.loadFailed}
          </Alert>
        ) : (
          <>
            <DataTable
              aria-label="Existing Announcements"
              columns={columns}
              rows={rows}
              rowKey={(a) => a._id}
              emptyText={ui.announcements.empty}
            />
            {rows.length > 0 && (
              <LoadMoreFooter
                hasNextPage={hasNextPage}
                isFetchingMore={list.isFetchingNextPage}
                moreFailed={isFetchNextPageError}
                onLoadMore={loadMore}
                noun="announcements"
                endText="End of announcements."
              />
            )}
          </>
        )}
      </Card.Body>
      <ConfirmDialog
        show={!!pending}
        title="Delete Announcement"
        confirmLabel="Delete"
        variant="danger"
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setPending(null)}
      >
        {pending ? ui.announcements.confirmDelete(pending.title) : null}
      </ConfirmDialog>
    </Card>
  );
}

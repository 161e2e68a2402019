import { useState } from 'react';
import { Button, Card } from 'react-bootstrap';
import { ui, type AdminAnnouncement, type AdminAnnouncementList } from '@herald/contract';
import { formatDate, formatDateTime } from '../../lib/format';
import { ConfirmDialog } from '../../components/confirm-dialog';
import type { Column } from '../../components/data-table';
import { PagedTable } from '../../components/paged-table';
import { usePagedRows } from '../../components/use-paged-rows';
import { useAllAnnouncements } from '../../api/announcements/get-all-announcements';
import { useDeleteAnnouncement } from '../../api/announcements/delete-announcement';
import { VISIBILITY_OPTIONS } from './announcement-form-logic';
import { failure, OutcomeAlert, type Outcome } from './outcome-alert';

const visibilityLabel = (a: AdminAnnouncement) => {
  const label = VISIBILITY_OPTIONS.find((o) => o.value === a.visibility.type)?.label ?? '';
  return a.visibility.type === 'specific' ? `${label}: ${a.visibility.targets.join(', ')}` : label;
};

const announcementsOf = (page: AdminAnnouncementList) => page.announcements;

/** Every announcement (Admin), newest first, each with Delete behind a confirmation. */
export function AnnouncementsTable() {
  const list = useAllAnnouncements();
  const remove = useDeleteAnnouncement();
  const [pending, setPending] = useState<AdminAnnouncement | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const paged = usePagedRows(list, announcementsOf);

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
        <PagedTable
          loading={paged.loading}
          loadingLabel="Loading announcements..."
          error={paged.failed ? ui.announcements.loadFailed : null}
          aria-label="Existing Announcements"
          columns={columns}
          rows={paged.rows}
          rowKey={(a) => a._id}
          emptyText={ui.announcements.empty}
          more={paged.more}
          noun="announcements"
          endText="End of announcements."
        />
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

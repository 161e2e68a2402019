import { useState } from 'react';
import { Button } from 'react-bootstrap';
import { auditUi as t, type AuditEntryView } from '@herald/contract';
import type { Column } from '../../components/data-table';
import { PagedTable } from '../../components/paged-table';
import { RoleBadge } from '../../components/role-badge';
import type { PagedMore } from '../../components/use-paged-rows';
import { formatDateTime } from '../../lib/format';
import { changeLines, roleOf, targetText } from './audit-data';
import { AuditEntryDialog } from './audit-entry-dialog';

/** Changes shown in a row; the rest are in the entry's details. */
const CHANGES_SHOWN = 3;

function Changes({ entry }: { entry: AuditEntryView }) {
  const lines = changeLines(entry.changes);
  if (lines.length === 0) return <span className="text-muted">–</span>;
  return (
    <ul className="list-unstyled mb-0 small">
      {lines.slice(0, CHANGES_SHOWN).map((l) => (
        <li key={l} className="text-break">
          {l}
        </li>
      ))}
      {lines.length > CHANGES_SHOWN && (
        <li className="text-muted">+{lines.length - CHANGES_SHOWN} more</li>
      )}
    </ul>
  );
}

function Origin({ entry }: { entry: AuditEntryView }) {
  if (entry.originHidden) return <span className="text-muted">{t.hidden}</span>;
  return (
    <>
      <div className="text-nowrap">{entry.ip ?? '–'}</div>
      {entry.userAgent && <div className="small text-muted text-break">{entry.userAgent}</div>}
    </>
  );
}

interface AuditTableProps {
  entries: readonly AuditEntryView[];
  loading: boolean;
  error: string | null;
  more: PagedMore;
}

/** The entries, newest first; IP and user agent are a column from tablet width up. */
export function AuditTable({ entries, loading, error, more }: AuditTableProps) {
  const [open, setOpen] = useState<AuditEntryView | null>(null);
  const columns: Column<AuditEntryView>[] = [
    { header: 'Time', cell: (e) => formatDateTime(e.at), className: 'text-nowrap' },
    {
      header: 'Actor',
      cell: (e) => {
        const role = roleOf(e.actor.role);
        return (
          <>
            <div className="text-break">{e.actor.label}</div>
            {role && <RoleBadge role={role} />}
            {e.actor.apiKeyId && <div className="small text-muted">{t.apiKey}</div>}
          </>
        );
      },
    },
    { header: 'Action', cell: (e) => <code>{e.action}</code> },
    {
      header: 'Target',
      cell: (e) => (
        <>
          <div className="small text-muted">{e.target.type}</div>
          <div className="text-break">{targetText(e.target)}</div>
        </>
      ),
    },
    { header: 'Changes', cell: (e) => <Changes entry={e} /> },
    {
      header: 'IP / User agent',
      cell: (e) => <Origin entry={e} />,
      className: 'd-none d-md-table-cell',
    },
    {
      header: t.details,
      cell: (e) => (
        <Button
          size="sm"
          variant="outline-secondary"
          aria-label={`${t.details}: ${e.action} ${formatDateTime(e.at)}`}
          onClick={() => setOpen(e)}
        >
          {t.details}
        </Button>
      ),
    },
  ];
  return (
    <>
      <PagedTable
        loading={loading}
        loadingLabel={t.loading}
        error={error}
        aria-label={t.title}
        columns={columns}
        rows={entries}
        rowKey={(e) => e.id}
        emptyText={t.empty}
        more={more}
        noun="audit entries"
        endText="End of the audit log"
      />
      {open && <AuditEntryDialog entry={open} onHide={() => setOpen(null)} />}
    </>
  );
}

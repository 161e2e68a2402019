import { useState } from 'react';
import { Alert, Badge, Button, Card } from 'react-bootstrap';
import {
  PROVIDER_KIND_LABELS,
  SENDER_ADDRESS_LABELS,
  ui,
  type Provider,
  type Sender,
  formatCount,
} from '@herald/contract';
import { RemoveConfirm } from './remove-confirm';
import { DataTable, type Column } from '../../components/data-table';
import { errorMessage } from '../../lib/api-client';
import { useRemoveSender } from '../../api/delivery/remove-sender';
import { SenderFormDialog } from './sender-form-dialog';

const t = ui.providers;
const END = 'text-end';

type Open = { action: 'add' | 'edit' | 'remove'; sender: Sender | null } | null;

interface SendersSectionProps {
  senders: readonly Sender[];
  providers: readonly Provider[];
  onNotice: (text: string) => void;
}

/**
 * Every sender of every provider: its address, rate per second, daily limit and what it sent
 * today (UTC), held across all app instances; added, edited and removed here.
 */
export function SendersSection({ senders, providers, onNotice }: SendersSectionProps) {
  const [open, setOpen] = useState<Open>(null);
  const remove = useRemoveSender();
  const close = () => setOpen(null);
  const start = (action: 'add' | 'edit' | 'remove', sender: Sender | null) => {
    remove.reset();
    setOpen({ action, sender });
  };
  const target = open?.sender ?? null;

  const columns: Column<Sender>[] = [
    {
      header: t.columns.name,
      cell: (s) => (
        <>
          {s.name}
          {s.isDefault && (
            <Badge bg="secondary" className="ms-2">
              {t.defaultBadge}
            </Badge>
          )}
        </>
      ),
    },
    {
      header: t.columns.provider,
      cell: (s) => (
        <>
          <div>{s.provider}</div>
          <div className="small text-muted">{PROVIDER_KIND_LABELS[s.providerKind]}</div>
        </>
      ),
    },
    {
      header: t.columns.address,
      cell: (s) => (
        <>
          <div className="small text-muted">{SENDER_ADDRESS_LABELS[s.providerKind]}</div>
          <div className="font-monospace text-nowrap">{s.address || '—'}</div>
        </>
      ),
    },
    { header: t.columns.rate, className: END, cell: (s) => formatCount(s.ratePerSecond) },
    {
      header: t.columns.dailyLimit,
      className: END,
      cell: (s) => (s.dailyLimit === null ? ui.delivery.unlimited : formatCount(s.dailyLimit)),
    },
    { header: t.columns.sentToday, className: END, cell: (s) => formatCount(s.sentToday) },
    {
      header: t.columns.actions,
      className: 'text-end text-nowrap',
      cell: (s) => (
        <>
          <Button
            size="sm"
            variant="outline-primary"
            aria-label={`${t.actions.edit} ${s.name}`}
            onClick={() => start('edit', s)}
          >
            {t.actions.edit}
          </Button>
          {/* The default sender carries every unrouted credit type: the server keeps it. */}
          {!s.isDefault && (
            <Button
              size="sm"
              variant="outline-danger"
              className="ms-2"
              aria-label={`${t.actions.remove} ${s.name}`}
              onClick={() => start('remove', s)}
            >
              {t.actions.remove}
            </Button>
          )}
        </>
      ),
    },
  ];

  return (
    <Card className="shadow-sm mb-4">
      <Card.Body>
        <div className="d-flex flex-wrap gap-2 justify-content-between align-items-center mb-3">
          <h2 className="h5 mb-0">{t.sendersTitle}</h2>
          <Button size="sm" onClick={() => start('add', null)} disabled={providers.length === 0}>
            {t.addSender}
          </Button>
        </div>
        {remove.isError && (
          <Alert variant="danger">{errorMessage(remove.error, t.senderRemoveFailed)}</Alert>
        )}
        <DataTable
          aria-label={t.sendersTitle}
          columns={columns}
          rows={senders}
          rowKey={(s) => s.id}
          emptyText={t.noSenders}
        />
      </Card.Body>
      {(open?.action === 'add' || open?.action === 'edit') && (
        <SenderFormDialog
          sender={target}
          providers={providers}
          onHide={close}
          onSaved={(s) => {
            onNotice(target ? ui.delivery.senderSaved(s.name) : t.senderCreated(s.name));
            close();
          }}
        />
      )}
      <RemoveConfirm
        show={open?.action === 'remove'}
        title={t.removeSenderTitle}
        target={target}
        busy={remove.isPending}
        confirmText={t.removeSenderConfirm}
        removedText={t.senderRemoved}
        remove={remove.mutate}
        onNotice={onNotice}
        onClose={close}
      />
    </Card>
  );
}

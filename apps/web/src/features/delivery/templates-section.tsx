import { useId, useState } from 'react';
import { Alert, Button, Card } from 'react-bootstrap';
import { ui, type Sender, type SenderTemplate } from '@herald/contract';
import { DataTable, type Column } from '../../components/data-table';
import { LoadingSpinner } from '../../components/loading-spinner';
import { errorMessage } from '../../lib/api-client';
import { useSenderTemplates } from '../../api/delivery/get-templates';
import { useRemoveTemplate } from '../../api/delivery/remove-template';
import { RemoveConfirm } from './remove-confirm';
import { TemplateFormDialog } from './template-form-dialog';
import './providers.css';

const t = ui.templates;

interface TemplatesSectionProps {
  senders: readonly Sender[];
  onNotice: (text: string) => void;
}

/**
 * The approved WhatsApp templates of each WhatsApp sender (docs/delivery.md, Templates):
 * listed with their variable count, added and removed here. Campaigns keep their own copy of
 * the template they were created with, so removing one changes nothing already created.
 */
export function TemplatesSection({ senders, onNotice }: TemplatesSectionProps) {
  const whatsApp = senders.filter((s) => s.providerKind === 'whatsapp_cloud');
  return (
    <Card className="shadow-sm mb-4">
      <Card.Body>
        <h2 className="h5">{t.title}</h2>
        <p className="text-muted small">{t.intro}</p>
        {whatsApp.length === 0 ? (
          <Alert variant="info" className="mb-0">
            {t.noWhatsAppSenders}
          </Alert>
        ) : (
          whatsApp.map((s) => <SenderTemplates key={s.id} sender={s} onNotice={onNotice} />)
        )}
      </Card.Body>
    </Card>
  );
}

type Open = { action: 'add' } | { action: 'remove'; template: SenderTemplate } | null;

function SenderTemplates({
  sender,
  onNotice,
}: {
  sender: Sender;
  onNotice: (text: string) => void;
}) {
  const templates = useSenderTemplates(sender.id);
  const remove = useRemoveTemplate();
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const heading = t.senderHeading(sender.name, sender.address);
  const headingId = useId();

  const columns: Column<SenderTemplate>[] = [
    { header: t.columns.name, cell: (x) => <span className="font-monospace">{x.name}</span> },
    { header: t.columns.language, cell: (x) => x.language },
    {
      header: t.columns.body,
      cell: (x) => <div className="template-body">{x.body}</div>,
    },
    { header: t.columns.variables, className: 'text-end', cell: (x) => x.variables },
    {
      header: t.columns.actions,
      className: 'text-end',
      cell: (x) => (
        <Button
          size="sm"
          variant="outline-danger"
          aria-label={t.removeLabel(x.name)}
          onClick={() => {
            remove.reset();
            setOpen({ action: 'remove', template: x });
          }}
        >
          {ui.providers.actions.remove}
        </Button>
      ),
    },
  ];

  let list;
  if (templates.isPending) list = <LoadingSpinner label="Loading..." />;
  else if (templates.isError) {
    list = <Alert variant="danger">{errorMessage(templates.error, t.loadFailed)}</Alert>;
  } else {
    list = (
      <DataTable
        aria-label={`${t.title}: ${heading}`}
        columns={columns}
        rows={templates.data}
        rowKey={(x) => x.id}
        emptyText={t.noTemplates}
      />
    );
  }

  return (
    <section className="mt-3" aria-labelledby={headingId}>
      <div className="d-flex flex-wrap gap-2 justify-content-between align-items-center mb-2">
        <h3 className="h6 mb-0 text-break" id={headingId}>
          {heading}
        </h3>
        <Button
          size="sm"
          aria-label={t.addFor(sender.name)}
          onClick={() => setOpen({ action: 'add' })}
        >
          {t.add}
        </Button>
      </div>
      {remove.isError && (
        <Alert variant="danger">{errorMessage(remove.error, t.removeFailed)}</Alert>
      )}
      {list}
      {open?.action === 'add' && (
        <TemplateFormDialog
          sender={sender}
          onHide={close}
          onSaved={(x) => {
            onNotice(t.created(x.name));
            close();
          }}
        />
      )}
      <RemoveConfirm
        show={open?.action === 'remove'}
        title={t.removeTitle}
        target={open?.action === 'remove' ? open.template : null}
        busy={remove.isPending}
        confirmText={t.removeConfirm}
        removedText={t.removed}
        remove={remove.mutate}
        onNotice={onNotice}
        onClose={close}
      />
    </section>
  );
}

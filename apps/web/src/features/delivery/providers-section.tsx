import { useState } from 'react';
import { Alert, Button, Card } from 'react-bootstrap';
import { ui, type Provider, type Sender } from '@herald/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { RemoveConfirm } from './remove-confirm';
import { DataTable } from '../../components/data-table';
import { errorMessage } from '../../lib/api-client';
import { useRemoveProvider } from '../../api/delivery/remove-provider';
import { useUpdateProvider } from '../../api/delivery/update-provider';
import { ProviderFormDialog } from './provider-form-dialog';
import { providerColumns, type ProviderAction } from './provider-columns';
import { TestMessageDialog } from './test-message-dialog';
import { toggleBody } from './provider-form';
import { sendersOf } from './test-message-form';

const t = ui.providers;

type Open = { action: ProviderAction | 'add'; provider: Provider | null } | null;

interface ProvidersSectionProps {
  providers: readonly Provider[];
  senders: readonly Sender[];
  onNotice: (text: string) => void;
}

/** The providers table, with adding, editing, testing, disabling and removing one. */
export function ProvidersSection({ providers, senders, onNotice }: ProvidersSectionProps) {
  const [open, setOpen] = useState<Open>(null);
  const toggle = useUpdateProvider();
  const remove = useRemoveProvider();
  const close = () => setOpen(null);

  const setEnabled = (p: Provider) =>
    toggle.mutate(
      { id: p.id, body: toggleBody(p) },
      {
        onSuccess: (saved) =>
          onNotice(saved.enabled ? t.providerEnabled(saved.name) : t.providerDisabled(saved.name)),
        onSettled: close,
      },
    );

  const act = (p: Provider, action: ProviderAction) => {
    toggle.reset();
    remove.reset();
    // Enabling holds nothing back: no question. Disabling makes campaigns wait: asked first.
    if (action === 'toggle' && !p.enabled) setEnabled(p);
    else setOpen({ action, provider: p });
  };
  const busy = toggle.isPending
    ? (toggle.variables.id ?? null)
    : remove.isPending
      ? (remove.variables ?? null)
      : null;
  const target = open?.provider ?? null;

  return (
    <Card className="shadow-sm mb-4">
      <Card.Body>
        <div className="d-flex flex-wrap gap-2 justify-content-between align-items-center mb-3">
          <h2 className="h5 mb-0">{t.providersTitle}</h2>
          <Button size="sm" onClick={() => setOpen({ action: 'add', provider: null })}>
            {t.addProvider}
          </Button>
        </div>
        {toggle.isError && (
          <Alert variant="danger">{errorMessage(toggle.error, t.providerToggleFailed)}</Alert>
        )}
        {remove.isError && (
          <Alert variant="danger">{errorMessage(remove.error, t.providerRemoveFailed)}</Alert>
        )}
        <DataTable
          aria-label={t.providersTitle}
          columns={providerColumns(act, busy)}
          rows={providers}
          rowKey={(p) => p.id}
          emptyText={t.noProviders}
        />
      </Card.Body>
      {(open?.action === 'add' || open?.action === 'edit') && (
        <ProviderFormDialog
          provider={target}
          onHide={close}
          onSaved={(p) => {
            onNotice(t.providerSaved(p.name));
            close();
          }}
        />
      )}
      {open?.action === 'test' && target && (
        <TestMessageDialog provider={target} senders={sendersOf(target, senders)} onHide={close} />
      )}
      <ConfirmDialog
        show={open?.action === 'toggle'}
        title={t.disableTitle}
        confirmLabel={t.actions.disable}
        variant="danger"
        busy={toggle.isPending}
        onCancel={close}
        onConfirm={() => target && setEnabled(target)}
      >
        {target ? t.disableConfirm(target.name) : ''}
      </ConfirmDialog>
      <RemoveConfirm
        show={open?.action === 'remove'}
        title={t.removeProviderTitle}
        target={target}
        busy={remove.isPending}
        confirmText={t.removeProviderConfirm}
        removedText={t.providerRemoved}
        remove={remove.mutate}
        onNotice={onNotice}
        onClose={close}
      />
    </Card>
  );
}

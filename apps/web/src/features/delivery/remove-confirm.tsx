import { ui } from '@herald/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';

/** The "remove this row?" dialog of the Providers screen's providers, senders and templates. */
interface RemoveConfirmProps {
  show: boolean;
  title: string;
  target: { id: string; name: string } | null | undefined;
  busy: boolean;
  confirmText: (name: string) => string;
  removedText: (name: string) => string;
  remove: (id: string, opts: { onSuccess: () => void; onSettled: () => void }) => void;
  onNotice: (text: string) => void;
  onClose: () => void;
}

export function RemoveConfirm(p: RemoveConfirmProps) {
  const { target } = p;
  return (
    <ConfirmDialog
      show={p.show}
      title={p.title}
      confirmLabel={ui.providers.actions.remove}
      variant="danger"
      busy={p.busy}
      onCancel={p.onClose}
      onConfirm={() =>
        target &&
        p.remove(target.id, {
          onSuccess: () => p.onNotice(p.removedText(target.name)),
          onSettled: p.onClose,
        })
      }
    >
      {target ? p.confirmText(target.name) : ''}
    </ConfirmDialog>
  );
}

import { Badge, Dropdown } from 'react-bootstrap';
import { PROVIDER_FIELDS, PROVIDER_KIND_LABELS, ui, type Provider } from '@herald/contract';
import type { Column } from '../../components/data-table';
import { RowActionsMenu } from '../../components/row-actions-menu';
import { CopyButton } from './copy-button';
import './providers.css';

const t = ui.providers;

export type ProviderAction = 'edit' | 'test' | 'toggle' | 'remove';

/** Each secret of the provider's kind: its label and how it ends, never more. */
function SecretsCell({ p }: { p: Provider }) {
  // The built-in simulator's secret is the server's DELIVERY_WEBHOOK_SECRET, not kept here.
  if (p.builtin) return <span className="small text-muted">{t.secretOfServer}</span>;
  const secrets = PROVIDER_FIELDS[p.kind].filter((f) => f.secret);
  return (
    <ul className="list-unstyled small mb-0">
      {secrets.map((f) => {
        const last4 = p.secrets[f.name];
        return (
          <li key={f.name} className="text-nowrap">
            <span className="text-muted">{f.label}: </span>
            {last4 === undefined ? t.secretNotSet : t.maskedSecret(last4)}
          </li>
        );
      })}
    </ul>
  );
}

/** The providers table's columns; `busy` names the row whose action is running. */
export function providerColumns(
  act: (p: Provider, action: ProviderAction) => void,
  busy: string | null,
): Column<Provider>[] {
  return [
    {
      header: t.columns.name,
      cell: (p) => (
        <>
          {p.name}
          {p.builtin && (
            <Badge bg="secondary" className="ms-2">
              {t.builtin}
            </Badge>
          )}
        </>
      ),
    },
    { header: t.columns.kind, cell: (p) => PROVIDER_KIND_LABELS[p.kind] },
    {
      header: t.columns.status,
      cell: (p) =>
        p.enabled ? (
          <Badge bg="success">{t.enabled}</Badge>
        ) : (
          <Badge bg="danger">{t.disabled}</Badge>
        ),
    },
    { header: t.columns.secrets, cell: (p) => <SecretsCell p={p} /> },
    {
      header: t.columns.callbackUrl,
      cell: (p) => (
        <div className="callback-url">
          <code className="d-block small mb-1">{p.callbackUrl}</code>
          <CopyButton text={p.callbackUrl} label={t.copyLabel(p.name)} />
        </div>
      ),
    },
    { header: t.columns.senders, className: 'text-end', cell: (p) => p.senderCount },
    {
      header: t.columns.actions,
      className: 'text-end',
      cell: (p) => (
        <RowActionsMenu busy={busy === p.id}>
          {!p.builtin && (
            <Dropdown.Item as="button" onClick={() => act(p, 'edit')}>
              {t.actions.edit}
            </Dropdown.Item>
          )}
          <Dropdown.Item as="button" onClick={() => act(p, 'test')}>
            {t.actions.test}
          </Dropdown.Item>
          {!p.builtin && (
            <>
              <Dropdown.Item as="button" onClick={() => act(p, 'toggle')}>
                {p.enabled ? t.actions.disable : t.actions.enable}
              </Dropdown.Item>
              <Dropdown.Item as="button" className="text-danger" onClick={() => act(p, 'remove')}>
                {t.actions.remove}
              </Dropdown.Item>
            </>
          )}
        </RowActionsMenu>
      ),
    },
  ];
}

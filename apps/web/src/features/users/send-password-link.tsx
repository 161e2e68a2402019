import { Alert, Button, Spinner } from 'react-bootstrap';
import { ui, type User } from '@herald/contract';
import { errorMessage } from '../../lib/api-client';
import { useSendSetPasswordLink } from '../../api/users/send-set-password-link';

/**
 * Edit User, for whoever manages the user: mail a new one-time link to set a password (when
 * the first expired or was lost); older links stop working.
 */
export function SendPasswordLink({ user }: { user: User }) {
  const send = useSendSetPasswordLink();
  return (
    <section className="border-top pt-3 mt-2" aria-labelledby="password-link-title">
      <h3 id="password-link-title" className="h6">
        {ui.users.passwordLinkTitle}
      </h3>
      <p className="small text-muted mb-2">{ui.users.passwordLinkHint(user.email)}</p>
      <Button
        variant="outline-primary"
        size="sm"
        disabled={send.isPending || user.status !== 'Active'}
        onClick={() => send.mutate(user.id)}
      >
        {send.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
        {ui.users.passwordLinkSend}
      </Button>
      {send.isSuccess && (
        <Alert variant="success" className="mt-2 mb-0 py-2 small">
          {send.data.message}
        </Alert>
      )}
      {send.isError && (
        <Alert variant="danger" className="mt-2 mb-0 py-2 small">
          {errorMessage(send.error, ui.users.passwordLinkFailed)}
        </Alert>
      )}
    </section>
  );
}

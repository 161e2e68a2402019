import { Alert } from 'react-bootstrap';
import { ui } from '@herald/contract';
import { useSession } from '../../lib/auth-store';
import { CreditForm } from './credit-form';
import { TransactionsTable } from './transactions-table';

/**
 * Credit Management: /credits for Admin and /reseller-credits for Reseller and
 * Sub-Reseller are one screen; the session's role picks the table and the balances shown.
 */
export function CreditsPage() {
  const session = useSession();
  return (
    <div>
      <h1 className="h3 mb-3">Credit Management</h1>
      {session ? (
        <>
          <CreditForm me={session.user} />
          <TransactionsTable role={session.user.role} />
        </>
      ) : (
        <Alert variant="warning">{ui.credits.pleaseLogIn}</Alert>
      )}
    </div>
  );
}

import { Alert, Card, Tab, Tabs } from 'react-bootstrap';
import { ui } from '@herald/contract';
import { useSession } from '../../lib/auth-store';
import { CampaignReportsTab } from './campaign-reports-tab';
import { CreditBalancesTab } from './credit-balances-tab';
import { CreditTransactionsTab } from './credit-transactions-tab';

/**
 * Reports (Admin only: docs/product.md, Decisions): balances, the whole ledger and the
 * completed campaigns' delivery reports, one tab each, each loaded when first opened.
 */
export function ReportsPage() {
  const session = useSession();
  if (!session) return <Alert variant="danger">{ui.reports.loadFailed}</Alert>;
  return (
    <div>
      <h1 className="h3 mb-3">Reports</h1>
      <Card className="shadow-sm">
        <Card.Body>
          <Tabs defaultActiveKey="balances" id="reports-tabs" className="mb-3" mountOnEnter>
            <Tab eventKey="balances" title="Credit Balances">
              <CreditBalancesTab />
            </Tab>
            <Tab eventKey="transactions" title="Credit Transactions">
              <CreditTransactionsTab />
            </Tab>
            <Tab eventKey="campaigns" title="Campaign Reports">
              <CampaignReportsTab />
            </Tab>
          </Tabs>
        </Card.Body>
      </Card>
    </div>
  );
}

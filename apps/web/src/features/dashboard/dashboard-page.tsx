import { ui, type Dashboard, type Role, formatCount } from '@herald/contract';
import { useSession } from '../../lib/auth-store';
import { useDashboard } from '../../api/dashboard/get-dashboard';
import { FigureCard } from '../../components/figure-card';
import { LoadingSpinner } from '../../components/loading-spinner';
import { ApprovalQueueCard } from './approval-queue-card';
import { CreditTypesCard } from './credit-types-card';

/** The credit figures: one count per credit type each (docs/product.md, Dashboards and analytics). */
type PerTypeFigure = 'creditsSentMonth' | 'creditsUsedMonth' | 'creditsRemaining';
type NumberFigure = Exclude<keyof Dashboard, PerTypeFigure>;

type CardDef =
  | { title: string; figure: NumberFigure; percent?: boolean }
  | { title: string; perType: PerTypeFigure };

const RESELLER_CARDS: CardDef[] = [
  { title: 'My Total Users', figure: 'totalUsers' },
  { title: 'My Active Campaigns', figure: 'activeCampaigns' },
  { title: 'Credits Used (Month)', perType: 'creditsUsedMonth' },
  { title: 'My Open Tickets', figure: 'openTickets' },
  { title: 'Credits Remaining', perType: 'creditsRemaining' },
];

/** The cards of each role's dashboard, with the product's titles. */
const CARDS: Record<Role, CardDef[]> = {
  Admin: [
    { title: 'Total Users', figure: 'totalUsers' },
    { title: 'Active Campaigns', figure: 'activeCampaigns' },
    { title: 'Credits Sent (Month)', perType: 'creditsSentMonth' },
    { title: 'Open Support Tickets', figure: 'openTickets' },
  ],
  Reseller: RESELLER_CARDS,
  'Sub-Reseller': RESELLER_CARDS,
  User: [
    { title: 'Campaigns Sent', figure: 'campaignsSent' },
    { title: 'Credits Remaining', perType: 'creditsRemaining' },
    { title: 'Avg. Success Rate', figure: 'avgSuccessRate', percent: true },
    { title: 'My Open Tickets', figure: 'openTickets' },
  ],
};

function slug(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** avgSuccessRate is a percentage (0–100), shown with one decimal. */
function formatFigure(value: number, percent: boolean | undefined): string {
  return percent ? `${value.toFixed(1)}%` : formatCount(value);
}

/** A card's value; a dash for an average over no delivery report yet. */
function figureOf(def: { figure: NumberFigure; percent?: boolean }, data: Dashboard): string {
  const value = data[def.figure];
  return value === null || value === undefined ? '—' : formatFigure(value, def.percent);
}

/** Dashboard with live figures for the caller's scope (docs/product.md, Dashboards and analytics). */
export function DashboardPage() {
  const session = useSession();
  const { data, isError } = useDashboard();
  if (!session) return null;

  return (
    <div>
      <h1 className="h3 mb-4">Dashboard</h1>
      {isError && (
        <div className="alert alert-danger" role="alert">
          {ui.dashboard.loadFailed}
        </div>
      )}
      {/* The cards come all at once with the figures: a card's height depends on its figures
          (one line per credit type), so cards drawn before them would push the ones below down
          as they fill, a layout shift on a phone, where the cards stack (docs/performance.md,
          Page speed). A failed refresh keeps the figures already shown; a failed first load
          shows none. */}
      {!data && !isError && <LoadingSpinner />}
      {data && (
        <div className="row g-3">
          {CARDS[session.user.role].map((def) =>
            'perType' in def ? (
              <CreditTypesCard
                key={def.perType}
                id={`dashboard-${slug(def.title)}`}
                title={def.title}
                counts={data[def.perType] ?? []}
              />
            ) : (
              <FigureCard
                key={def.figure}
                id={`dashboard-${slug(def.title)}`}
                title={def.title}
                value={figureOf(def, data)}
              />
            ),
          )}
          {/* The Admin's approval queue, a card of its own. */}
          {session.user.role === 'Admin' && <ApprovalQueueCard data={data} />}
        </div>
      )}
    </div>
  );
}

import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Alert, Button, Card, Col, Row } from 'react-bootstrap';
import {
  PROFILE_RECENT_CAMPAIGNS,
  SESSION_ERROR_REDIRECT_MS,
  ui,
  userStatusVariant,
  type Profile,
} from '@herald/contract';
import { routes } from '../../app/paths';
import { ApiError } from '../../lib/api-client';
import { useSession } from '../../lib/auth-store';
import { formatDateTime, orDash } from '../../lib/format';
import { DataTable, type Column } from '../../components/data-table';
import { DetailCard } from '../../components/detail-card';
import { LoadingSpinner } from '../../components/loading-spinner';
import { RoleBadge } from '../../components/role-badge';
import { StatusBadge } from '../../components/status-badge';
import { TestBadge } from '../../components/test-badge';
import { useProfile } from '../../api/profile/get-profile';
import { TwoFactorCard } from './two-factor/two-factor-card';
import { ChangePasswordDialog } from './change-password-dialog';

/** Without a session the message stays readable for a moment, then login. */
function useLoginRedirect(active: boolean) {
  const navigate = useNavigate();
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(
      () => navigate('/login', { replace: true }),
      SESSION_ERROR_REDIRECT_MS,
    );
    return () => clearTimeout(timer);
  }, [active, navigate]);
}

/** User Profile: details, credit balances and recent campaigns of one user. */
export function ProfilePage() {
  const { userId } = useParams();
  const session = useSession();
  const profile = useProfile(userId, !!session);
  const status = profile.error instanceof ApiError ? profile.error.status : undefined;
  // A 401 is handled by the layout: it shows the session-expired message and redirects.
  const expired = status === 401;
  useLoginRedirect(!expired && !session);

  let body;
  if (!userId) body = <Alert variant="danger">{ui.profile.noUserId}</Alert>;
  else if (expired) body = null;
  else if (!session) body = <Alert variant="danger">{ui.profile.authError}</Alert>;
  else if (status === 404) body = <Alert variant="warning">{ui.profile.notFound}</Alert>;
  else if (profile.isError) body = <Alert variant="danger">{ui.profile.loadFailed}</Alert>;
  else if (profile.isPending) body = <LoadingSpinner label="Loading profile..." />;
  else if (!profile.data?.user) body = <Alert variant="info">{ui.profile.noData}</Alert>;
  else
    return <ProfileView profile={profile.data} isOwn={profile.data.user.id === session.user.id} />;

  return (
    <div>
      <h1 className="h3 mb-3">User Profile</h1>
      {body}
    </div>
  );
}

const balanceColumns: Column<Profile['balances'][number]>[] = [
  { header: 'Credit Type', cell: (b) => b.creditType },
  { header: 'Total Added', cell: (b) => b.totalAdded, className: 'text-end' },
  { header: 'Total Used', cell: (b) => b.totalUsed, className: 'text-end' },
  { header: 'Remaining', cell: (b) => <strong>{b.remaining}</strong>, className: 'text-end' },
];

const campaignColumns: Column<Profile['recentCampaigns'][number]>[] = [
  { header: 'Created At', cell: (c) => formatDateTime(c.createdAt) },
  { header: 'Type', cell: (c) => c.creditType },
  { header: 'Recipients', cell: (c) => c.recipientCount, className: 'text-end' },
  {
    header: 'Status',
    cell: (c) => (
      <>
        <StatusBadge label={c.status} variant={c.status === 'Completed' ? 'success' : 'warning'} />
        <TestBadge test={c.test} />
      </>
    ),
  },
];

function ProfileView({ profile, isOwn }: { profile: Profile; isOwn: boolean }) {
  const { user, balances, recentCampaigns } = profile;
  const [changing, setChanging] = useState(false);
  return (
    <div>
      <div className="d-flex justify-content-between align-items-center mb-3">
        <h1 className="h3 mb-0">{isOwn ? 'My Profile' : 'User Profile'}</h1>
        {isOwn && (
          <div className="d-flex flex-wrap gap-2 justify-content-end">
            <Link to={routes.apiKeys.path} className="btn btn-outline-primary">
              {ui.apiKeys.profileLink}
            </Link>
            <Button variant="outline-primary" onClick={() => setChanging(true)}>
              Change Password
            </Button>
          </div>
        )}
      </div>
      <Row className="g-3 mb-3">
        <Col lg={6}>
          <DetailCard
            title="Personal Information"
            rows={[
              { label: 'Name', value: orDash(user.name) },
              { label: 'Email', value: orDash(user.email) },
              { label: 'Role', value: <RoleBadge role={user.role} /> },
              {
                label: 'Status',
                value: <StatusBadge label={user.status} variant={userStatusVariant(user.status)} />,
              },
              { label: 'Contact Person', value: orDash(user.contactPerson) },
              { label: 'Mobile', value: orDash(user.mobile) },
            ]}
          />
        </Col>
        <Col lg={6}>
          <DetailCard
            title="Address"
            rows={[
              { label: 'Firm/Company', value: orDash(user.firmName) },
              { label: 'Address', value: orDash(user.address) },
              { label: 'City', value: orDash(user.city) },
              { label: 'State', value: orDash(user.state) },
              { label: 'Pincode', value: orDash(user.pincode) },
            ]}
          />
        </Col>
      </Row>
      {isOwn && <TwoFactorCard />}
      <Card className="shadow-sm mb-3">
        <Card.Header as="h2" className="h6 mb-0">
          Credit Balances
        </Card.Header>
        <Card.Body>
          <DataTable
            aria-label="Credit Balances"
            columns={balanceColumns}
            rows={balances}
            rowKey={(b) => b.creditType}
            emptyText={ui.profile.noBalances}
          />
        </Card.Body>
      </Card>
      <Card className="shadow-sm">
        <Card.Header as="h2" className="h6 mb-0">
          Recent Campaigns
        </Card.Header>
        <Card.Body>
          <DataTable
            aria-label="Recent Campaigns"
            columns={campaignColumns}
            rows={recentCampaigns.slice(0, PROFILE_RECENT_CAMPAIGNS)}
            rowKey={(c) => c.id}
            emptyText={ui.profile.noCampaigns}
          />
        </Card.Body>
      </Card>
      {changing && <ChangePasswordDialog onHide={() => setChanging(false)} />}
    </div>
  );
}

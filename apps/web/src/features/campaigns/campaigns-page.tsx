import { useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, Card } from 'react-bootstrap';
import { SIMULATED_DELIVERY_NOTICE, ui, type Campaign } from '@herald/contract';
import { LoadingSpinner } from '../../components/loading-spinner';
import { usePagedMore } from '../../components/use-paged-rows';
import { errorMessage } from '../../lib/api-client';
import { useSession } from '../../lib/auth-store';
import {
  EMPTY_CAMPAIGN_FILTERS,
  useCampaigns,
  type CampaignFilterValues,
} from '../../api/campaigns/get-campaigns';
import { useUserSearch } from '../../api/users/get-users';
import { campaignActionsFor } from './campaign-actions';
import { CampaignFilters } from './campaign-filters';
import { campaignFiltersProblem, campaignUserOptions } from './campaigns-data';
import { CampaignsTable } from './campaigns-table';
import { CreateCampaignForm } from './create/create-campaign-form';
import { useCampaignActions } from './use-campaign-actions';

/** While a shown campaign is Processing, the list reloads this often besides the live events. */
const PROCESSING_POLL_MS = 5000;

/** Campaigns: create, filter, and act on the campaigns of the caller's scope. */
export function CampaignsPage() {
  const session = useSession();
  const me = session?.user;
  const isUser = me?.role === 'User';
  const [filters, setFilters] = useState<CampaignFilterValues>(EMPTY_CAMPAIGN_FILTERS);
  const problem = useMemo(() => campaignFiltersProblem(filters), [filters]);
  const list = useCampaigns(filters, !!me && !problem);
  const [userTerm, setUserTerm] = useState('');
  const users = useUserSearch(userTerm, !!me && !isUser);
  const actions = useCampaignActions();
  const more = usePagedMore(list);
  // The form refreshes the lists itself; clearing the filters puts the new campaign on top.
  const onCreated = useCallback(() => setFilters(EMPTY_CAMPAIGN_FILTERS), []);
  const role = me?.role;
  const actionsFor = useCallback((c: Campaign) => campaignActionsFor(role ?? 'User', c), [role]);
  // Self first, then the users matching what is typed; a picked user keeps its label.
  const userOptions = useMemo(
    () => (me && !isUser ? campaignUserOptions(me, users.data ?? [], '') : null),
    [me, isUser, users.data],
  );
  const userFilter = useMemo(
    () =>
      userOptions && {
        options: userOptions,
        term: userTerm,
        onTermChange: setUserTerm,
        searching: users.searching,
      },
    [userOptions, userTerm, users.searching],
  );

  // A fallback for the live 'campaigns' events (a dropped stream, a proxy that buffers it).
  const anyProcessing = !!list.data?.pages.some((p) =>
    p.campaigns.some((c) => c.status === 'Processing'),
  );
  const { refetch } = list;
  useEffect(() => {
    if (!anyProcessing) return;
    const timer = setInterval(() => void refetch(), PROCESSING_POLL_MS);
    return () => clearInterval(timer);
  }, [anyProcessing, refetch]);

  if (!me) return <Alert variant="danger">{ui.campaigns.loadFailed}</Alert>;

  const loadFailed = list.isError && !list.isFetchNextPageError;
  const loading = !problem && !loadFailed && (list.isPending || list.isPlaceholderData);
  const pages = loading || problem || loadFailed || !list.data ? [] : list.data.pages;
  const rowCount = pages.reduce((n, p) => n + p.campaigns.length, 0);
  const simulated = pages.some((p) => p.campaigns.some((c) => c.delivery?.simulated));

  let body;
  if (problem) body = <Alert variant="danger">{problem}</Alert>;
  else if (loadFailed) {
    body = <Alert variant="danger">{errorMessage(list.error, ui.campaigns.loadFailed)}</Alert>;
  } else if (loading) body = <LoadingSpinner label="Loading campaigns..." />;
  else if (rowCount === 0) {
    body = (
      <Alert variant="info" className="mb-0">
        {ui.campaigns.empty}
      </Alert>
    );
  } else {
    body = (
      <Card className="shadow-sm">
        <Card.Body>
          <CampaignsTable
            pages={pages}
            actionsFor={actionsFor}
            onAction={actions.onAction}
            downloadingId={actions.downloadingId}
            {...more}
          />
        </Card.Body>
      </Card>
    );
  }

  return (
    <div>
      <h1 className="h3 mb-3">{isUser ? 'My Campaigns' : 'Campaigns'}</h1>
      <div className="mb-3">
        <CreateCampaignForm onCreated={onCreated} />
      </div>
      <CampaignFilters values={filters} onChange={setFilters} userFilter={userFilter} />
      {simulated && (
        <Alert variant="warning" className="py-2">
          {SIMULATED_DELIVERY_NOTICE}
        </Alert>
      )}
      {body}
      {actions.overlays}
    </div>
  );
}

import { useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card } from 'react-bootstrap';
import { useSearchParams } from 'react-router';
import {
  CampaignListStatusSchema,
  isAwaitingApproval,
  SIMULATED_DELIVERY_NOTICE,
  ui,
  type Campaign,
  type CampaignCopyKind,
} from '@herald/contract';
import { LoadingSpinner } from '../../components/loading-spinner';
import { usePagedMore } from '../../components/use-paged-rows';
import { errorMessage } from '../../lib/api-client';
import { useSession } from '../../lib/auth-store';
import { lazyNamed, usePreloadWhenIdle } from '../../lib/lazy-named';
import { useMediaQuery } from '../../lib/use-media-query';
import {
  EMPTY_CAMPAIGN_FILTERS,
  useCampaigns,
  type CampaignFilterValues,
} from '../../api/campaigns/get-campaigns';
import { useApproveCampaigns } from '../../api/campaigns/approve-campaigns';
import { useUserSearch } from '../../api/users/get-users';
import { BulkApproveBar, bulkApproveNotice } from './bulk-approve-bar';
import { campaignActionsFor } from './campaign-actions';
import { CampaignFilters } from './campaign-filters';
import { campaignFiltersProblem, campaignUserOptions } from './campaigns-data';
import { CampaignsTable } from './campaigns-table';
import type { CopyRequest } from './create/campaign-copy';
import { useCampaignActions } from './use-campaign-actions';
import { useLinkedCampaign } from './use-linked-campaign';

// The create form is a chunk of its own: a phone shows it folded, so the list loads first and
// the form when it is first unfolded (or while the page is idle), its many chunks named to the
// browser a few per task (lib/spread-preloads.ts).
const CreateCampaignForm = lazyNamed(
  () => import('./create/create-campaign-form'),
  'CreateCampaignForm',
  <LoadingSpinner label="Loading the form..." />,
  'features/campaigns/create/create-campaign-form',
);
const FORM = [CreateCampaignForm];
/** Bootstrap's `md` breakpoint: from here on the form is always unfolded. */
const WIDE = '(min-width: 768px)';

/** While a shown campaign is Processing, the list reloads this often besides the live events. */
const PROCESSING_POLL_MS = 5000;

const NO_SELECTION: ReadonlySet<string> = new Set();
const selectable = (c: Campaign) => isAwaitingApproval(c.status);

/**
 * A link such as /campaigns?status=Awaiting%20Approval (the bell, the Admin's dashboard) sets
 * the Status filter; the page reacts each time the link changes, also while it is open.
 */
function useLinkedStatus(apply: (status: string) => void) {
  const [params] = useSearchParams();
  const linked = params.get('status');
  const [seen, setSeen] = useState<string | null>(null);
  if (linked !== seen) {
    setSeen(linked);
    const parsed = CampaignListStatusSchema.safeParse(linked);
    if (parsed.success) apply(parsed.data);
  }
}

/** Campaigns: create, filter, and act on the campaigns of the caller's scope. */
export function CampaignsPage() {
  const session = useSession();
  const me = session?.user;
  const isUser = me?.role === 'User';
  const isAdmin = me?.role === 'Admin';
  const [filters, setFiltersOnly] = useState<CampaignFilterValues>(EMPTY_CAMPAIGN_FILTERS);
  // The Admin's ticked rows; a new filter starts a new selection.
  const [selected, setSelected] = useState<ReadonlySet<string>>(NO_SELECTION);
  const setFilters = useCallback((next: CampaignFilterValues) => {
    setFiltersOnly(next);
    setSelected(NO_SELECTION);
  }, []);
  useLinkedStatus((status) => setFilters({ ...EMPTY_CAMPAIGN_FILTERS, status }));
  // On a phone the create form is folded away, so the list is on the first screen.
  const [formOpen, setFormOpen] = useState(false);
  const wide = useMediaQuery(WIDE);
  // Once drawn the form stays mounted (folding keeps what was typed).
  const [formMounted, setFormMounted] = useState(false);
  if ((formOpen || wide) && !formMounted) setFormMounted(true);
  usePreloadWhenIdle(FORM);
  const problem = useMemo(() => campaignFiltersProblem(filters), [filters]);
  const list = useCampaigns(filters, !!me && !problem);
  const [userTerm, setUserTerm] = useState('');
  const users = useUserSearch(userTerm, !!me && !isUser);
  // A row's Clone or Resend: the form (unfolded on a phone) fills itself from the campaign.
  const [copyRequest, setCopyRequest] = useState<CopyRequest | null>(null);
  const onCopy = useCallback((kind: CampaignCopyKind, campaign: Campaign) => {
    setFormOpen(true);
    setCopyRequest((prev) => ({ campaign, kind, seq: (prev?.seq ?? 0) + 1 }));
  }, []);
  const actions = useCampaignActions(onCopy);
  const bulk = useApproveCampaigns();
  const { onAction, setNotice } = actions;
  useLinkedCampaign(
    useCallback((c: Campaign) => onAction('view', c), [onAction]),
    useCallback((text: string) => setNotice({ variant: 'danger', text }), [setNotice]),
  );
  const more = usePagedMore(list);
  // The form refreshes the lists itself; clearing the filters puts the new campaign on top.
  const onCreated = useCallback(() => setFilters(EMPTY_CAMPAIGN_FILTERS), [setFilters]);
  const onToggle = useCallback((ids: readonly string[], on: boolean) => {
    setSelected((prev) => {
      const next = new Set(prev);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  }, []);
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
  const shown = pages.flatMap((p) => p.campaigns);
  // Only rows still shown and still awaiting approval count as ticked.
  const ticked = new Set(
    shown.filter((c) => selectable(c) && selected.has(c._id)).map((c) => c._id),
  );
  const selection = isAdmin ? { selected: ticked, selectable, onToggle } : undefined;
  const approveTicked = () =>
    bulk.mutate([...ticked], {
      onSuccess: (reply) => {
        actions.setNotice(bulkApproveNotice(reply, shown));
        setSelected(NO_SELECTION);
      },
      onError: (err) =>
        actions.setNotice({
          variant: 'danger',
          text: errorMessage(err, ui.campaigns.bulkApproveFailed),
        }),
    });

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
          {isAdmin && shown.some(selectable) && (
            <BulkApproveBar count={ticked.size} busy={bulk.isPending} onApprove={approveTicked} />
          )}
          <CampaignsTable
            pages={pages}
            actionsFor={actionsFor}
            onAction={actions.onAction}
            downloadingId={actions.downloadingId}
            selection={selection}
            {...more}
          />
        </Card.Body>
      </Card>
    );
  }

  return (
    <div>
      <div className="d-flex align-items-center justify-content-between gap-2 mb-3">
        <h1 className="h3 mb-0">{isUser ? 'My Campaigns' : 'Campaigns'}</h1>
        {/* Phones only: on wider screens the form is always shown, as before. */}
        <Button
          className="d-md-none"
          variant={formOpen ? 'outline-secondary' : 'primary'}
          aria-expanded={formOpen}
          aria-controls="create-campaign-section"
          onClick={() => setFormOpen((open) => !open)}
        >
          {formOpen ? 'Hide form' : 'New Campaign'}
        </Button>
      </div>
      <div id="create-campaign-section" className={formOpen ? 'mb-3' : 'mb-3 d-none d-md-block'}>
        {formMounted && <CreateCampaignForm onCreated={onCreated} copyRequest={copyRequest} />}
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

import { useCallback, useMemo } from 'react';
import { Alert } from 'react-bootstrap';
import { ui, type Campaign, type CampaignList } from '@herald/contract';
import { LoadingSpinner } from '../../components/loading-spinner';
import { errorMessage } from '../../lib/api-client';
import {
  EMPTY_CAMPAIGN_FILTERS,
  useCampaigns,
  type CampaignFilterValues,
} from '../../api/campaigns/get-campaigns';
import type { CampaignAction } from '../../features/campaigns/campaign-actions';
import { CampaignsTable } from '../../features/campaigns/campaigns-table';
import { useCampaignActions } from '../../features/campaigns/use-campaign-actions';

const COMPLETE: CampaignFilterValues = { ...EMPTY_CAMPAIGN_FILTERS, status: 'Report Generated' };
const REPORT_ACTIONS: CampaignAction[] = ['view', 'report'];
const reportActions = () => REPORT_ACTIONS;

/** Reports › Campaign Reports: campaigns that are Report Generated and have report rows. */
export function CampaignReportsTab() {
  const list = useCampaigns(COMPLETE);
  const actions = useCampaignActions();
  const { fetchNextPage, hasNextPage, isFetching, isFetchNextPageError } = list;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetching) void fetchNextPage();
  }, [fetchNextPage, hasNextPage, isFetching]);
  // Kept per page so already loaded pages keep their identity (see CampaignsTable).
  const pages = useMemo<CampaignList[]>(
    () =>
      (list.data?.pages ?? []).map((p) => ({
        ...p,
        campaigns: p.campaigns.filter((c: Campaign) => c.reportCount > 0),
      })),
    [list.data],
  );

  if (list.isPending) return <LoadingSpinner label="Loading campaign reports..." />;
  if (list.isError && !isFetchNextPageError) {
    return <Alert variant="danger">{errorMessage(list.error, ui.reports.loadFailed)}</Alert>;
  }
  const empty = pages.every((p) => p.campaigns.length === 0) && !hasNextPage;
  return (
    <>
      {empty ? (
        <Alert variant="info">No campaign reports yet.</Alert>
      ) : (
        <CampaignsTable
          aria-label="Campaign Reports"
          pages={pages}
          actionsFor={reportActions}
          onAction={actions.onAction}
          downloadingId={actions.downloadingId}
          hasNextPage={hasNextPage}
          isFetchingMore={list.isFetchingNextPage}
          moreFailed={isFetchNextPageError}
          onLoadMore={loadMore}
        />
      )}
      {actions.overlays}
    </>
  );
}

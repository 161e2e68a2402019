import { useCallback, useMemo } from 'react';
import type { CampaignDetail } from '@herald/contract';
import { LoadMoreFooter } from '../../components/load-more-footer';
import { useCampaignRecipients } from '../../api/campaigns/get-campaign-recipients';
import { canLoadMoreRecipients, recipientsCaption, recipientsEndText } from './campaigns-data';

/**
 * The recipients of the details dialog: the first slice the detail carries, then a page more
 * each time the end of the list scrolls into view, up to RECIPIENTS_SHOWN_MAX (the Download zip
 * has them all). A campaign may hold a million numbers: they are never fetched or held at once.
 */
export function CampaignRecipientsList({ campaign }: { campaign: CampaignDetail }) {
  const first = useMemo(
    () => ({ recipients: campaign.recipients, nextCursor: campaign.recipientsNextCursor }),
    [campaign.recipients, campaign.recipientsNextCursor],
  );
  const query = useCampaignRecipients(campaign._id, first);
  const { fetchNextPage, hasNextPage, isFetching, isFetchNextPageError } = query;
  const shown = useMemo(
    () => (query.data?.pages ?? [first]).flatMap((p) => p.recipients),
    [query.data, first],
  );
  const total = campaign.recipientCount;
  const canLoad = canLoadMoreRecipients(shown.length, hasNextPage);
  const loadMore = useCallback(() => {
    if (canLoad && !isFetching) void fetchNextPage();
  }, [canLoad, fetchNextPage, isFetching]);

  return (
    <div>
      <div className="small text-muted mb-1" aria-live="polite">
        {recipientsCaption(shown.length, total)}
      </div>
      <div
        className="border rounded bg-light p-2 font-monospace small"
        style={{ maxHeight: 240, overflowY: 'auto' }}
        aria-label="Recipients"
        tabIndex={0}
      >
        <div>{shown.join(', ')}</div>
        <LoadMoreFooter
          hasNextPage={canLoad}
          isFetchingMore={query.isFetchingNextPage}
          moreFailed={isFetchNextPageError}
          onLoadMore={loadMore}
          noun="recipients"
          endText={recipientsEndText(shown.length, total)}
        />
      </div>
    </div>
  );
}

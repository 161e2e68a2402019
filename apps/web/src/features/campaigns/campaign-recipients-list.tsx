import { useCallback, useMemo, useRef } from 'react';
import { Button, Spinner } from 'react-bootstrap';
import type { CampaignDetail } from '@herald/contract';
import { useLoadMore } from '../../components/use-load-more';
import { useCampaignRecipients } from '../../api/campaigns/get-campaign-recipients';
import { canLoadMoreRecipients, recipientsCaption, recipientsEndText } from './campaigns-data';

/**
 * The recipients of the details dialog: the first slice the detail carries, then a page more
 * each time the end of the list scrolls into view (or on "Load more"), up to
 * RECIPIENTS_SHOWN_MAX; the Download zip has them all. A campaign may hold a million numbers:
 * they are never fetched or held at once.
 */
export function CampaignRecipientsList({ campaign }: { campaign: CampaignDetail }) {
  const first = useMemo(
    () => ({ recipients: campaign.recipients, nextCursor: campaign.recipientsNextCursor }),
    [campaign.recipients, campaign.recipientsNextCursor],
  );
  const query = useCampaignRecipients(campaign._id, first);
  const { fetchNextPage, hasNextPage, isFetching, isFetchingNextPage } = query;
  const moreFailed = query.isFetchNextPageError;
  const shown = useMemo(
    () => (query.data?.pages ?? [first]).flatMap((p) => p.recipients),
    [query.data, first],
  );
  const total = campaign.recipientCount;
  const canLoad = canLoadMoreRecipients(shown.length, hasNextPage);
  const loadMore = useCallback(() => {
    if (canLoad && !isFetching) void fetchNextPage();
  }, [canLoad, fetchNextPage, isFetching]);
  // The list scrolls inside the dialog's own scrolling body: watch the end against the list.
  const box = useRef<HTMLDivElement>(null);
  const sentinel = useLoadMore(canLoad && !isFetchingNextPage && !moreFailed, loadMore, box);

  let footer;
  if (isFetchingNextPage) {
    footer = (
      <Spinner animation="border" size="sm" role="status">
        <span className="visually-hidden">Loading more recipients...</span>
      </Spinner>
    );
  } else if (canLoad) {
    footer = (
      <Button size="sm" variant="outline-secondary" onClick={loadMore}>
        {moreFailed ? 'Could not load more recipients. Try again' : 'Load more'}
      </Button>
    );
  } else footer = <span>{recipientsEndText(shown.length, total)}</span>;

  return (
    <div>
      <div className="small text-muted mb-1" aria-live="polite">
        {recipientsCaption(shown.length, total)}
      </div>
      <div
        ref={box}
        className="border rounded bg-light p-2 font-monospace small"
        style={{ maxHeight: 240, overflowY: 'auto' }}
        aria-label="Recipients"
        tabIndex={0}
      >
        <div>{shown.join(', ')}</div>
        <div ref={sentinel} aria-hidden="true" />
        <div className="text-center text-muted mt-2">{footer}</div>
      </div>
    </div>
  );
}

import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { CAMPAIGN_OPEN_PARAM, ui, type Campaign } from '@herald/contract';
import { errorMessage } from '../../lib/api-client';
import { campaignQueryOptions } from '../../api/campaigns/get-campaign';

/**
 * A notification's deep link, /campaigns?open={id}: the campaign is fetched by its id (it may
 * be far down the list, or outside the filters) and its details open over the list; the
 * parameter is then dropped, so closing the details and refreshing does not open them again.
 * An id the caller cannot see leaves the server's message instead.
 */
export function useLinkedCampaign(
  open: (campaign: Campaign) => void,
  fail: (message: string) => void,
) {
  const [params, setParams] = useSearchParams();
  const id = params.get(CAMPAIGN_OPEN_PARAM);
  const linked = useQuery({ ...campaignQueryOptions(id ?? ''), enabled: !!id, retry: false });
  const { data, error } = linked;

  useEffect(() => {
    if (!id || (!data && !error)) return;
    if (data && data._id === id) open(data);
    else if (error) fail(errorMessage(error, ui.campaigns.loadFailed));
    else return;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete(CAMPAIGN_OPEN_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [id, data, error, open, fail, setParams]);
}

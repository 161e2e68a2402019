import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { subscribeLiveAlerts } from '../../api/notifications/live-alerts';
import { unreadNotificationsQueryOptions } from '../../api/notifications/get-notifications';
import { myAnnouncementsQueryOptions } from '../../api/announcements/get-my-announcements';
import { campaignsRootKey } from '../../api/campaigns/get-campaigns';

/** A campaign being sent announces each batch; its pages reload at most this often. */
const CAMPAIGNS_RELOAD_MS = 1000;
/** What a 'campaigns' event reloads: the campaign lists (their rows carry the totals). */
const CAMPAIGN_LISTS = [...campaignsRootKey, 'list'] as const;

/**
 * Keeps the bell current within a second: each live event reloads the list it names, and a
 * (re)opened stream reloads them all, since events may have been missed while it was down. The
 * 30-second polling of the queries stays as the fallback. 'campaigns' events (a campaign's
 * delivery moved) reload the campaign lists, throttled to once a second.
 */
export function useLiveAlerts(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const controller = new AbortController();
    const reload = (key: readonly unknown[]) =>
      void queryClient.invalidateQueries({ queryKey: key });
    const notifications = unreadNotificationsQueryOptions().queryKey;
    const announcements = myAnnouncementsQueryOptions().queryKey;
    // Leading and trailing: the first event reloads at once, a burst at most once a second,
    // and the last of a burst is never lost.
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reloadCampaigns = () => {
      if (timer) return;
      const wait = Math.max(0, last + CAMPAIGNS_RELOAD_MS - Date.now());
      timer = setTimeout(() => {
        timer = undefined;
        last = Date.now();
        reload(CAMPAIGN_LISTS);
      }, wait);
    };
    // The stream never ends: opened before the page's load event, it would hold that event (and
    // anything waiting for a quiet network) forever. Events missed meanwhile are none: opening
    // reloads every list.
    const open = () =>
      subscribeLiveAlerts(
        (kind) => {
          if (kind === 'campaigns') reloadCampaigns();
          else reload(kind === 'notifications' ? notifications : announcements);
        },
        () => {
          reload(notifications);
          reload(announcements);
          reloadCampaigns();
        },
        controller.signal,
      );
    if (document.readyState === 'complete') open();
    else window.addEventListener('load', open, { once: true, signal: controller.signal });
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [queryClient]);
}

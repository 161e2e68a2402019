import type { Announcement } from '@herald/contract';
import { externalLink } from '../../lib/external-link';

/**
 * The Learn More target of an announcement in the history: the same http(s)-only check as the
 * bell's announcement dialog, so a `javascript:` or other unsafe link is never rendered as a link.
 */
export function learnMoreHref(announcement: Pick<Announcement, 'link'>): string | null {
  return externalLink(announcement.link);
}

/**
 * An announcement's Learn More target: http(s) only, so a `javascript:` or other unsafe link is
 * never rendered as a link. Shared by the bell's announcement dialog and the history.
 */
export function externalLink(link: string | null): string | null {
  return link && /^https?:\/\//i.test(link) ? link : null;
}

import { useMediaQuery } from '../../../lib/use-media-query';

/** Below Bootstrap's `sm` breakpoint: a phone, where a report row takes two lines. */
const PHONE = '(max-width: 575.98px)';

/** Whether the report is shown on a phone-sized screen (follows rotation and resizing). */
export function useCompactReport(): boolean {
  return useMediaQuery(PHONE);
}

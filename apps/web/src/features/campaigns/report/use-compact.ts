import { useSyncExternalStore } from 'react';

/** Below Bootstrap's `sm` breakpoint: a phone, where a report row takes two lines. */
const PHONE = '(max-width: 575.98px)';

function subscribe(onChange: () => void) {
  const query = window.matchMedia(PHONE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

const matches = () => window.matchMedia(PHONE).matches;

/** Whether the report is shown on a phone-sized screen (follows rotation and resizing). */
export function useCompactReport(): boolean {
  return useSyncExternalStore(subscribe, matches, () => false);
}

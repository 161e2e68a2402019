import { useEffect, useRef, type RefObject } from 'react';

/**
 * A sentinel element that asks for the next page when it nears the view (of `root`, or the
 * window). A fresh observer after every load: its first callback fires at once when the end is
 * still in view, so pages keep coming until the view is filled.
 */
export function useLoadMore(
  canLoad: boolean,
  onLoadMore: () => void,
  root?: RefObject<HTMLElement | null>,
): RefObject<HTMLDivElement | null> {
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = sentinel.current;
    if (!canLoad || !el) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) onLoadMore();
      },
      { root: root?.current ?? null, rootMargin: '0px 0px 400px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [canLoad, onLoadMore, root]);
  return sentinel;
}

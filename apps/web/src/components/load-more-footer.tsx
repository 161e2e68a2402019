import { Button, Spinner } from 'react-bootstrap';
import { useLoadMore } from './use-load-more';
import type { PagedMore } from './use-paged-rows';

export interface LoadMoreFooterProps extends PagedMore {
  /** What the list holds, for the spinner's label and the retry line ("transactions"). */
  noun: string;
  /** Shown once everything is loaded. */
  endText: string;
}

/**
 * The end of an infinite list: an invisible sentinel that asks for the next page as it nears
 * the view, a spinner while the page loads, a retry after a failure and an end line.
 */
export function LoadMoreFooter(props: LoadMoreFooterProps) {
  const { hasNextPage, isFetchingMore, moreFailed, onLoadMore, noun, endText } = props;
  const sentinel = useLoadMore(hasNextPage && !isFetchingMore && !moreFailed, onLoadMore);

  return (
    <>
      <div ref={sentinel} aria-hidden="true" />
      <div className="text-center small text-muted mt-3">
        {isFetchingMore ? (
          <Spinner animation="border" size="sm" role="status">
            <span className="visually-hidden">Loading more {noun}...</span>
          </Spinner>
        ) : moreFailed ? (
          <span className="d-inline-flex align-items-center gap-2">
            Could not load more {noun}.
            <Button size="sm" variant="outline-secondary" onClick={onLoadMore}>
              Try again
            </Button>
          </span>
        ) : hasNextPage ? null : (
          <span>{endText}</span>
        )}
      </div>
    </>
  );
}

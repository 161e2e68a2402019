import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/api-client';

/**
 * The signed-in shell's query client. The layout creates one per mount, and logging out
 * unmounts the layout, so one user's cached data never shows to the next.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // A 4xx answer will not change on retry; a network or 5xx failure gets one more try.
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status < 500) && failureCount < 1,
      },
    },
  });
}

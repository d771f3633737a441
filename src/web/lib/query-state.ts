/**
 * Whether a query has nothing to show because its load failed. A refetch that fails (say while the realtime
 * channel is down) keeps the data loaded before (TanStack Query keeps `data`): a page goes on showing it,
 * and the header's Disconnected badge says why it may be behind (issue 12).
 */
export const hasNothingLoaded = (query: { isError: boolean; data: unknown }): boolean =>
  query.isError && query.data === undefined;

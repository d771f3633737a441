import type { PublicConfig } from '@contract/platform';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from './api-client';

export type { PublicConfig };

export const publicConfigQuery = () =>
  queryOptions({ queryKey: ['/api/public-config'], queryFn: getJson<PublicConfig> });

/** Deployment facts the app needs before anyone signs in (sign-in method, support address, hosts). */
export const usePublicConfig = () => useQuery(publicConfigQuery());

/**
 * White-label mode (spec seller-app §1): any host other than the app's own, or `?whelabel=true`.
 * Until the configuration is known the app's own host is assumed.
 */
export function isWhiteLabelHost(currentHost: string, search: string, publicUrl: string | undefined): boolean {
  if (new URLSearchParams(search).get('whelabel') === 'true') return true;
  if (!publicUrl) return false;
  try {
    return new URL(publicUrl).host !== currentHost;
  } catch {
    return false;
  }
}

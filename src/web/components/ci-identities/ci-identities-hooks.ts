import type { OidcTrust, OidcTrustInput } from '@contract/oidc-trusts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getJson } from '@web/lib/api-client';

// A holder's trusted CI identities, at `basePath`: `/api/portal/oidc-trusts` for the signed-in holder, or
// `/api/customers/{id}/oidc-trusts` for the seller on Management. The same panel serves both.

export const oidcTrustsQuery = (basePath: string) =>
  queryOptions({ queryKey: [basePath], queryFn: getJson<OidcTrust[]> });

export const useOidcTrusts = (basePath: string) => useQuery(oidcTrustsQuery(basePath));

export function useAddOidcTrust(basePath: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: OidcTrustInput) => apiRequest<OidcTrust>('POST', basePath, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: oidcTrustsQuery(basePath).queryKey }),
  });
}

export function useRemoveOidcTrust(basePath: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (trustId: string) => apiRequest<OidcTrust>('DELETE', `${basePath}/${trustId}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: oidcTrustsQuery(basePath).queryKey }),
  });
}

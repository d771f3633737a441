import type { PortalOverview, PortalRotateTokenResponse, PortalSession } from '@contract/portal';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getJson } from '../../lib/api-client';

// The portal's calls, on the seller's host the page was opened on.

export const portalSessionQuery = () =>
  queryOptions({ queryKey: ['/api/portal/session'], queryFn: getJson<PortalSession> });
export const usePortalSession = (enabled: boolean) => useQuery({ ...portalSessionQuery(), enabled });

export const portalOverviewQuery = () =>
  queryOptions({ queryKey: ['/api/portal/licenses'], queryFn: getJson<PortalOverview> });
export const usePortalOverview = (enabled: boolean) => useQuery({ ...portalOverviewQuery(), enabled });

export function useRequestSignInLink() {
  return useMutation({
    mutationFn: (email: string) => apiRequest<{ message: string }>('POST', '/api/portal/sign-in', { email }),
  });
}

export function useVerifySignInLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => apiRequest<{ email: string }>('POST', '/api/portal/sign-in/verify', { token }),
    onSuccess: (session) => queryClient.setQueryData(portalSessionQuery().queryKey, session),
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<{ message: string }>('POST', '/api/portal/sign-out'),
    onSuccess: () => {
      queryClient.setQueryData(portalSessionQuery().queryKey, null);
      queryClient.removeQueries({ queryKey: portalOverviewQuery().queryKey });
    },
  });
}

export function useRotateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<PortalRotateTokenResponse>('POST', '/api/portal/token'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: portalOverviewQuery().queryKey }),
  });
}

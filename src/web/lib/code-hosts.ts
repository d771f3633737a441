import type { CodeHostOverview, ConnectionRepository, GithubAppConnected } from '@contract/code-hosts';
import { queryOptions, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getJson } from './api-client';

// The seller's code-host connections (issue 30): the Code hosts page and Add Package read them.

export const CODE_HOSTS_PATH = '/api/code-hosts';

export const codeHostsQuery = () =>
  queryOptions({ queryKey: [CODE_HOSTS_PATH], queryFn: getJson<CodeHostOverview>, refetchOnMount: 'always' });
export const useCodeHosts = (enabled = true) => useQuery({ ...codeHostsQuery(), enabled });

/** Each connection's repositories, read live from its host every time the dialog opens (never kept). */
export function useConnectionRepositories(connectionIds: string[], enabled: boolean) {
  return useQueries({
    queries: connectionIds.map((id) => ({
      queryKey: [`${CODE_HOSTS_PATH}/${id}/repositories`],
      queryFn: getJson<ConnectionRepository[]>,
      enabled,
      staleTime: 0,
      gcTime: 0,
      retry: false,
    })),
  });
}

export function useRemoveConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `${CODE_HOSTS_PATH}/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

/** Where to send the browser to install the GitHub App (with a state sealed to this seller). */
export function useGithubAppInstall() {
  return useMutation({
    mutationFn: () => getJson<{ url: string }>({ queryKey: [`${CODE_HOSTS_PATH}/github-app/install`] }),
  });
}

export function useConnectGithubApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { installationId: string; state: string }) =>
      apiRequest<GithubAppConnected>('POST', `${CODE_HOSTS_PATH}/github-app`, input),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

import type { ConnectBitbucketInput, ConnectGitlabTokenInput } from '@contract/code-host-tokens';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { failureToast } from '../../components/failure-toast';
import { toast } from '../../components/ui/use-toast';
import { apiRequest, getJson } from '../../lib/api-client';

// Connecting GitLab and Bitbucket Cloud (issue 30 items 2 and 3): the token forms and GitLab's OAuth option.

type Connected = { id: string; label: string; kind: string };

export const gitlabOptionsQuery = () =>
  queryOptions({
    queryKey: ['/api/code-hosts/gitlab'],
    queryFn: getJson<{ oauth: boolean; defaultUrl: string }>,
  });
export const useGitlabOptions = () => useQuery(gitlabOptionsQuery());

/** GitLab's consent page is reached by navigating here (the server sets the state cookie and redirects). */
export const GITLAB_AUTHORIZE_PATH = '/api/code-hosts/gitlab/authorize';

export function useConnectGitlabToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ConnectGitlabTokenInput) =>
      apiRequest<Connected>('POST', '/api/code-hosts/gitlab/token', input),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

export function useConnectBitbucket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ConnectBitbucketInput) => apiRequest<Connected>('POST', '/api/code-hosts/bitbucket', input),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

/** What a connect form does with the answer: `onConnected` and a toast naming the connection, or the refusal. */
export function connectOutcome(host: string, onConnected: () => void) {
  return {
    onSuccess: (connected: Connected) => {
      onConnected();
      toast({ title: `${host} connected`, description: `${connected.label} is connected.` });
    },
    onError: (error: unknown) => failureToast('Error', error, 'Failed to connect'),
  };
}

import type { ApiToken, CreateApiTokenInput, CreatedApiToken } from '@contract/developer';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { failureToast } from '../../components/failure-toast';
import { toast } from '../../components/ui/use-toast';
import { apiRequest, getJson } from '../../lib/api-client';

const TOKENS_PATH = '/api/developer/tokens';

/** Read afresh whenever the page opens: "last used" moves while the seller's systems call the API. */
export const apiTokensQuery = () =>
  queryOptions({ queryKey: [TOKENS_PATH], queryFn: getJson<ApiToken[]>, refetchOnMount: 'always' });

export const useApiTokens = () => useQuery(apiTokensQuery());

/** Creates a token; the answer holds the plaintext, which the dialog shows once. */
export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiTokenInput) => apiRequest<CreatedApiToken>('POST', TOKENS_PATH, input),
    onSuccess: (created) => {
      toast({ title: 'API Token Created', description: `${created.name} is ready. Copy it now: it is shown once.` });
      return queryClient.invalidateQueries({ queryKey: apiTokensQuery().queryKey });
    },
    onError: (error) => failureToast('Failed to create API token', error),
  });
}

/** Deletion is permanent: the token stops working on its next request. */
export function useDeleteApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: ApiToken) => apiRequest<unknown>('DELETE', `${TOKENS_PATH}/${encodeURIComponent(token.id)}`),
    onSuccess: (_answer, token) => {
      toast({ title: 'Token Deleted', description: `${token.name} can no longer be used for API requests.` });
      return queryClient.invalidateQueries({ queryKey: apiTokensQuery().queryKey });
    },
    onError: (error) => failureToast('Failed to delete API token', error),
  });
}

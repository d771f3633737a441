import type { CreatedHolderToken, CreateHolderTokenInput, HolderToken } from '@contract/holder-tokens';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getJson } from '@web/lib/api-client';

// A holder's named Composer tokens, at `basePath`: `/api/portal/tokens` for the signed-in holder (list, create,
// rotate, revoke), or `/api/customers/{id}/tokens` for the seller on Management (list, revoke).

export const holderTokensQuery = (basePath: string) =>
  queryOptions({ queryKey: [basePath], queryFn: getJson<HolderToken[]> });

export const useHolderTokens = (basePath: string) => useQuery(holderTokensQuery(basePath));

function useInvalidate(basePath: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: holderTokensQuery(basePath).queryKey });
}

export function useCreateHolderToken(basePath: string) {
  const invalidate = useInvalidate(basePath);
  return useMutation({
    mutationFn: (input: CreateHolderTokenInput) => apiRequest<CreatedHolderToken>('POST', basePath, input),
    onSuccess: invalidate,
  });
}

export function useRotateHolderToken(basePath: string) {
  const invalidate = useInvalidate(basePath);
  return useMutation({
    mutationFn: ({ tokenId, overlapHours }: { tokenId: string; overlapHours: number }) =>
      apiRequest<CreatedHolderToken>('POST', `${basePath}/${tokenId}/rotate`, { overlapHours }),
    onSuccess: invalidate,
  });
}

export function useRevokeHolderToken(basePath: string) {
  const invalidate = useInvalidate(basePath);
  return useMutation({
    mutationFn: (tokenId: string) => apiRequest<HolderToken>('DELETE', `${basePath}/${tokenId}`),
    onSuccess: invalidate,
  });
}

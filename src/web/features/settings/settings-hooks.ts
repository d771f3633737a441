import type { AccountStatus, CloseAccountInput } from '@contract/account';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getJson } from '../../lib/api-client';

// The Settings page's account (issue 35): whether it is closed and until when, and closing it.

export const ACCOUNT_PATH = '/api/account';
/** A plain link: the browser downloads the archive the server streams, named by its Content-Disposition. */
export const ACCOUNT_EXPORT_PATH = '/api/account/export';

export const accountStatusQuery = () =>
  queryOptions({ queryKey: [ACCOUNT_PATH], queryFn: getJson<AccountStatus>, refetchOnMount: 'always' });
export const useAccountStatus = () => useQuery(accountStatusQuery());

export function useCloseAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CloseAccountInput) => apiRequest('POST', '/api/account/close', input),
    // Closing ends every session, this one too: everything cached belongs to a signed-out visitor now.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

import type { AdminUserListItem } from '@contract/admin';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { toast, toastAfterReload } from '../../components/ui/use-toast';
import { getJson } from '../../lib/api-client';
import { isApiRequestError } from '../../lib/api-error';
import { impersonationToasts, startImpersonation, stopImpersonation } from '../../lib/impersonation';

export type { AdminUserListItem };

export const adminUsersQuery = () =>
  queryOptions({ queryKey: ['/api/admin/users'], queryFn: getJson<AdminUserListItem[]> });

export const useAdminUsers = () => useQuery(adminUsersQuery());

/** Case-insensitive substring match on e-mail (spec admin §2); an empty search matches nobody. */
export function searchUsersByEmail(users: readonly AdminUserListItem[], search: string): AdminUserListItem[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return [];
  return users.filter((user) => user.email?.toLowerCase().includes(needle));
}

function failureToast(error: unknown, fallback: string) {
  toast({
    variant: 'destructive',
    title: (isApiRequestError(error) && error.error) || 'Error',
    description: (error instanceof Error && error.message) || fallback,
  });
}

/** Impersonate a user (spec admin §4): toast, then a full load so every part of the app sees the new user. */
export function useImpersonate() {
  return useMutation({
    mutationFn: startImpersonation,
    onSuccess: () => {
      toastAfterReload(impersonationToasts.started);
      window.location.href = '/dashboard';
    },
    onError: (error) => failureToast(error, 'Failed to start impersonation'),
  });
}

/** The Users tab's Stop Impersonation button: toast, then reload. */
export function useStopImpersonation() {
  return useMutation({
    mutationFn: stopImpersonation,
    onSuccess: () => {
      toastAfterReload(impersonationToasts.stopped);
      window.location.reload();
    },
    onError: (error) => failureToast(error, 'Failed to stop impersonation'),
  });
}

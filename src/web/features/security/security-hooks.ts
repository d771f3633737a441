import { useQueryClient } from '@tanstack/react-query';
import { toast } from '../../components/ui/use-toast';
import { errorMessage } from '../../lib/api-error';
import { CURRENT_USER_PATH } from '../../lib/current-user';

// What the Security page's cards share: the queries' keys, refreshing them after a change, and the toast of a failure.

export const SECURITY_PATH = '/api/auth/security';
export const SESSIONS_PATH = '/api/auth/sessions';

export function useRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: [SECURITY_PATH] }),
      queryClient.invalidateQueries({ queryKey: [SESSIONS_PATH] }),
      queryClient.invalidateQueries({ queryKey: [CURRENT_USER_PATH] }),
    ]);
}

/**
 * What follows adding a second factor: the first one's recovery codes (when the server made them) are shown, a toast
 * says `title`, and the page's data is read again.
 */
export function useSecondFactorAdded(onCodes: (codes: string[]) => void) {
  const refresh = useRefresh();
  return async (title: string, result: { recoveryCodes?: string[] }) => {
    if (result.recoveryCodes) onCodes(result.recoveryCodes);
    toast({ title });
    await refresh();
  };
}

export function failed(error: unknown) {
  toast({ title: 'That did not work', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
}

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

export function failed(error: unknown) {
  toast({ title: 'That did not work', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
}

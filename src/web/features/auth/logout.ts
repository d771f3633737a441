import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { clearToasts } from '../../components/ui/use-toast';
import { apiClient, apiRequest } from '../../lib/api-client';
import { LOGOUT_REDIRECT_DELAY_MS } from '../../lib/constants';
import { stopRealtime } from '../../lib/socket-client';
import { taskProgressStore } from '../../lib/task-progress';

/** Forgets everything this tab knows about the user: queries, realtime, tasks, toasts, CSRF token. */
export function useClearClientState(): () => void {
  const queryClient = useQueryClient();
  return () => {
    queryClient.cancelQueries();
    queryClient.clear();
    stopRealtime();
    taskProgressStore.clear();
    clearToasts();
    apiClient.csrf.invalidate();
  };
}

/**
 * Sign out (spec seller-app §4): end the server session, clear the client, wait 200 ms, then load
 * `/?logout={timestamp}` so that nothing of the previous user survives in memory.
 */
export function useLogout(): { logout: () => Promise<void>; isLoggingOut: boolean } {
  const clearClientState = useClearClientState();
  const [isLoggingOut, setLoggingOut] = useState(false);
  const logout = async () => {
    setLoggingOut(true);
    try {
      await apiRequest('POST', '/api/auth/logout');
    } catch (error) {
      // The redirect still happens: a session the server could not end expires on its own.
      console.error('Logout request failed', error);
    }
    clearClientState();
    await new Promise((resolve) => setTimeout(resolve, LOGOUT_REDIRECT_DELAY_MS));
    window.location.href = `/?logout=${Date.now()}`;
  };
  return { logout, isLoggingOut };
}

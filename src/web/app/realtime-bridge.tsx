import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { toast } from '../components/ui/use-toast';
import { useCurrentUser } from '../lib/current-user';
import { isConnected, startRealtime, stopRealtime, useConnectionStatus } from '../lib/socket-client';
import { taskProgressStore } from '../lib/task-progress';

/** Queries that realtime events keep fresh; refetched whenever the connection comes or goes (spec §4). */
const REALTIME_BACKED_QUERIES = [['/api/repositories'], ['/api/analytics/dashboard']];

/** Keeps the realtime channel open while someone is signed in and routes its events to the stores. */
export function RealtimeBridge() {
  const queryClient = useQueryClient();
  const { data: user } = useCurrentUser();
  const userId = user?.id;
  const status = useConnectionStatus();
  const connected = isConnected(status);
  const previouslyConnected = useRef<boolean | undefined>(undefined);

  useEffect(() => {
    if (!userId) {
      stopRealtime();
      return;
    }
    startRealtime(userId, {
      onTaskProgress: taskProgressStore.addTask,
      onSystemNotification: (notification) => {
        taskProgressStore.addNotification(notification);
        toast({
          title: notification.title,
          description: notification.message,
          variant: notification.level === 'error' ? 'destructive' : 'default',
        });
      },
      onAuthenticationError: (message) => console.warn('Realtime authentication failed:', message),
    });
  }, [userId]);

  useEffect(() => () => stopRealtime(), []);

  useEffect(() => {
    const previous = previouslyConnected.current;
    previouslyConnected.current = connected;
    if (previous === undefined || previous === connected) return;
    for (const queryKey of REALTIME_BACKED_QUERIES) queryClient.invalidateQueries({ queryKey });
  }, [connected, queryClient]);

  return null;
}

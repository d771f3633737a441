import { WifiOff } from 'lucide-react';
import { Tooltip } from '../components/ui/tooltip';
import { useCurrentUser } from '../lib/current-user';
import { useConnectionStatus } from '../lib/socket-client';

const EXPLANATION = 'WebSocket connection is not active. Real-time updates are disabled.';

/** Shown in the header to a signed-in user while the realtime channel is down. */
export function DisconnectedBadge() {
  const { data: user } = useCurrentUser();
  const status = useConnectionStatus();
  if (!user || status !== 'disconnected') return null;
  return (
    <Tooltip content={EXPLANATION}>
      <span
        className="inline-flex items-center gap-1.5 rounded-full border border-amber-500/50 bg-amber-500/10 px-2.5 py-1 text-xs font-medium text-amber-700 dark:text-amber-400"
        role="status"
        data-testid="disconnected-badge"
      >
        <WifiOff className="size-3.5" aria-hidden="true" />
        Disconnected
        <span className="sr-only">: {EXPLANATION}</span>
      </span>
    </Tooltip>
  );
}

import { LayoutDashboard, Loader2, LogOut, UserCog } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../components/ui/button';
import { toastAfterReload } from '../components/ui/use-toast';
import { displayUsername, useCurrentUser } from '../lib/current-user';
import { impersonationToasts, stopImpersonation } from '../lib/impersonation';

/** While an admin views the app as someone else: who, and the two ways back (spec seller-app §2, admin §4). */
export function ImpersonationBar() {
  const { data: user } = useCurrentUser();
  const [pending, setPending] = useState<'admin' | 'stop' | null>(null);
  if (!user?.isImpersonating) return null;

  const stop = async (then: 'admin' | 'stop') => {
    setPending(then);
    try {
      await stopImpersonation();
      toastAfterReload(impersonationToasts.stopped);
      if (then === 'admin') window.location.href = '/admin';
      else window.location.reload();
    } catch (error) {
      // Spec seller-app §7: a failed stop is only logged; the bar stays so the admin can try again.
      console.error('Stopping the impersonation failed', error);
      setPending(null);
    }
  };

  return (
    <div className="bg-amber-500 text-amber-950" role="status" data-testid="impersonation-bar">
      <div className="container mx-auto flex flex-wrap items-center justify-between gap-2 px-4 py-2">
        <p className="flex items-center gap-2 text-sm font-medium">
          <UserCog className="size-4 shrink-0" />
          <span>
            Viewing as <strong>{user.email ?? displayUsername(user)}</strong>
            {user.impersonator?.email ? ` · signed in as admin ${user.impersonator.email}` : ''}
          </span>
        </p>
        <div className="flex gap-2">
          <Button
            size="sm"
            variant="outline"
            className="h-8 border-amber-950/30 bg-transparent text-amber-950 hover:bg-amber-950/10"
            disabled={pending !== null}
            onClick={() => stop('admin')}
          >
            {pending === 'admin' ? <Loader2 className="animate-spin" /> : <LayoutDashboard />}
            Admin Dashboard
          </Button>
          <Button
            size="sm"
            className="h-8 bg-amber-950 text-amber-50 hover:bg-amber-950/90"
            disabled={pending !== null}
            onClick={() => stop('stop')}
          >
            {pending === 'stop' ? <Loader2 className="animate-spin" /> : <LogOut />}
            Stop Impersonation
          </Button>
        </div>
      </div>
    </div>
  );
}

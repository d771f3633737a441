import { Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { canOpenAdmin, useCurrentUser } from '../lib/current-user';

export function PageLoader() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center" aria-busy="true">
      <Loader2 className="size-6 animate-spin text-muted-foreground" aria-label="Loading" />
    </div>
  );
}

/** Signed-out visitors go to / (spec seller-app §6, admin §2). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { data: user, isLoading } = useCurrentUser();
  if (isLoading) return <PageLoader />;
  if (!user) return <Redirect to="/" replace />;
  return children;
}

/** Only admins, also while they view the app as someone else; everyone else goes to / (spec admin §6). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { data: user, isLoading } = useCurrentUser();
  if (isLoading) return <PageLoader />;
  if (!canOpenAdmin(user)) return <Redirect to="/" replace />;
  return children;
}

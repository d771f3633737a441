import type { TeamPermission } from '@contract/team-roles';
import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { CenteredSpinner } from '../components/centered-spinner';
import { canOpenAdmin, useCurrentUser } from '../lib/current-user';
import { forbiddenReason } from '../lib/permissions';

export function PageLoader() {
  return <CenteredSpinner className="min-h-[50vh]" />;
}

/** Signed-out visitors go to / (spec seller-app §6, admin §2). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { data: user, isLoading } = useCurrentUser();
  if (isLoading) return <PageLoader />;
  if (!user) return <Redirect to="/" replace />;
  return children;
}

/** A page the role cannot read (issue 33) says so with the server's sentence instead of failing request by request. */
export function RequirePermission({ permission, children }: { permission: TeamPermission; children: ReactNode }) {
  const { data: user } = useCurrentUser();
  const reason = forbiddenReason(user, permission);
  if (!reason) return children;
  return (
    <div className="container mx-auto flex min-h-[50vh] flex-col items-center justify-center gap-2 px-4 text-center">
      <h1 className="text-2xl font-bold tracking-tight">Not Available for Your Role</h1>
      <p className="text-muted-foreground" data-testid="forbidden-reason">
        {reason}
      </p>
    </div>
  );
}

/** Only admins, also while they view the app as someone else; everyone else goes to / (spec admin §6). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { data: user, isLoading } = useCurrentUser();
  if (isLoading) return <PageLoader />;
  if (!canOpenAdmin(user)) return <Redirect to="/" replace />;
  return children;
}

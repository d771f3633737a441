import { CLIENT_ROUTES } from '@contract/client-routes';
import { useQuery } from '@tanstack/react-query';
import { TriangleAlert } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { useCurrentUser } from '../../lib/current-user';
import { formatDate } from '../../lib/format-date';
import { accountStatusQuery } from './settings-hooks';

/**
 * Above every page of a closed account (issue 35): it is closed, and its data can be downloaded on Settings until the
 * erase date. Signing in again after closing is how the owner takes the export, so this is the first thing they see.
 */
export function ClosedAccountBanner() {
  const { data: user } = useCurrentUser();
  const [location] = useLocation();
  // A seller's session working in an organisation; an admin's own account is never closed.
  const isSeller = user?.userType === 'seller' && Boolean(user.organization);
  const status = useQuery({ ...accountStatusQuery(), enabled: isSeller, refetchOnMount: false });
  const account = status.data;
  if (!isSeller || !account?.closedAt || location === CLIENT_ROUTES.settings) return null;
  return (
    <div
      role="status"
      data-testid="closed-account-banner"
      className="flex items-center justify-center gap-2 border-b border-amber-500/50 bg-amber-500/10 px-4 py-2 text-sm"
    >
      <TriangleAlert className="size-4 shrink-0 text-amber-600" />
      <span>
        This account is closed. You can download its data until{' '}
        {account.eraseAfter ? formatDate(account.eraseAfter) : 'its erase date'} on{' '}
        <Link href={CLIENT_ROUTES.settings} className="font-medium underline">
          Settings
        </Link>
        .
      </span>
    </div>
  );
}

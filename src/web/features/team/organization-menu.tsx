import type { AuthUser } from '@contract/auth';
import { CLIENT_ROUTES } from '@contract/client-routes';
import { ROLE_LABELS } from '@contract/team-roles';
import { Building2, Check, Users } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator } from '../../components/ui/dropdown-menu';
import { useOrganizations, useSwitchOrganization } from './team-hooks';

/**
 * The user menu's organisations (issue 33): each one the person belongs to with their role there, the current one
 * checked; choosing another moves the session into it, forgets every cached answer and opens its Dashboard. Then a
 * link to the Team page.
 */
export function OrganizationMenuItems({ user }: { user: AuthUser }) {
  // An admin's own account belongs to no organisation.
  const organizations = useOrganizations(Boolean(user.organization));
  const [, navigate] = useLocation();
  const switchTo = useSwitchOrganization(() => navigate(CLIENT_ROUTES.dashboard));
  if (!user.organization) return null;
  const list = organizations.data?.organizations ?? [];

  return (
    <>
      <DropdownMenuLabel className="text-xs font-normal text-muted-foreground">Organisations</DropdownMenuLabel>
      {(list.length > 0 ? list : [{ ...user.organization, isCurrent: true }]).map((organization) => (
        <DropdownMenuItem
          key={organization.id}
          data-testid={`organization-${organization.slug}`}
          aria-current={organization.isCurrent ? 'true' : undefined}
          disabled={switchTo.isPending}
          onSelect={() => {
            if (organization.isCurrent) return;
            switchTo.mutate(organization.id);
          }}
        >
          {organization.isCurrent ? <Check /> : <Building2 />}
          <span className="min-w-0 flex-1 truncate">{organization.name}</span>
          <span className="text-xs text-muted-foreground">{ROLE_LABELS[organization.role]}</span>
        </DropdownMenuItem>
      ))}
      <DropdownMenuItem asChild>
        <Link href={CLIENT_ROUTES.team}>
          <Users />
          Team
        </Link>
      </DropdownMenuItem>
      <DropdownMenuSeparator />
    </>
  );
}

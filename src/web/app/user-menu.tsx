import { CLIENT_ROUTES } from '@contract/client-routes';
import { GitBranch, Loader2, LogOut, Settings, ShieldCheck } from 'lucide-react';
import { Link } from 'wouter';
import { Avatar, AvatarFallback, AvatarImage } from '../components/ui/avatar';
import { Button } from '../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../components/ui/dropdown-menu';
import { OrganizationMenuItems } from '../features/team/organization-menu';
import { type AuthUser, displayUsername } from '../lib/current-user';
import { initialsOf } from '../lib/initials';

/** The header's account menu for a signed-in user: who is signed in, and Sign out. */
export function UserMenu({
  user,
  onLogout,
  isLoggingOut,
}: {
  user: AuthUser;
  onLogout: () => void;
  isLoggingOut: boolean;
}) {
  const name = displayUsername(user);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className="h-9 gap-2 px-2" aria-label={`Account menu for ${name}`}>
          <Avatar className="size-7">
            {user.avatarUrl && <AvatarImage src={user.avatarUrl} alt="" />}
            <AvatarFallback>{initialsOf(name)}</AvatarFallback>
          </Avatar>
          <span className="hidden max-w-[10rem] truncate text-sm sm:inline" data-testid="header-username">
            {name}
          </span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-56">
        <DropdownMenuLabel className="font-normal">
          <p className="truncate text-sm font-medium">{name}</p>
          {user.email && <p className="truncate text-xs text-muted-foreground">{user.email}</p>}
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <OrganizationMenuItems user={user} />
        <DropdownMenuItem asChild>
          <Link href={CLIENT_ROUTES.settings}>
            <Settings />
            Settings
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href={CLIENT_ROUTES.codeHosts}>
            <GitBranch />
            Code hosts
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href={CLIENT_ROUTES.security}>
            <ShieldCheck />
            Security
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={onLogout} disabled={isLoggingOut}>
          {isLoggingOut ? <Loader2 className="animate-spin" /> : <LogOut />}
          Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

import type { TeamPermission } from '@contract/team-roles';
import { Loader2, LogOut, Menu, Package, Shield, X } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { GithubIcon } from '../components/github-icon';
import { TaskProgressWidget } from '../components/task-progress';
import { ThemeToggle } from '../components/theme-toggle';
import { Button } from '../components/ui/button';
import { useLogout } from '../features/auth/logout';
import { withEmailSignIn } from '../features/auth/sign-in-params';
import { cn } from '../lib/cn';
import { canOpenAdmin, useCurrentUser } from '../lib/current-user';
import { userCan } from '../lib/permissions';
import { usePublicConfig } from '../lib/public-config';
import { GITHUB_SIGN_IN_PATH } from '../lib/sign-in';
import { DisconnectedBadge } from './disconnected-badge';

/** The account menu (and its Radix menu and popper) loads once someone is signed in; the landing page never needs it. */
const UserMenu = lazy(async () => ({ default: (await import('./user-menu')).UserMenu }));

/** Each page with the permission its reading needs (issue 33): a role that lacks it does not see the link. */
const allNavLinks: { href: string; label: string; permission?: TeamPermission }[] = [
  { href: '/dashboard', label: 'Dashboard', permission: 'dashboard:read' },
  { href: '/management', label: 'Management', permission: 'packages:read' },
  { href: '/analytics', label: 'Analytics', permission: 'analytics:read' },
  { href: '/api-tokens', label: 'API Tokens', permission: 'tokens:read' },
  { href: '/webhooks', label: 'Webhooks', permission: 'webhooks:write' },
  { href: '/documentation', label: 'Documentation' },
];

export function Header() {
  const { data: user, isLoading } = useCurrentUser();
  const [location] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const { logout, isLoggingOut } = useLogout();
  const navLinks = allNavLinks.filter((link) => !link.permission || userCan(user, link.permission));

  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <div className="container mx-auto flex h-16 items-center gap-4 px-4">
        <Link href="/" className="flex items-center gap-2 font-bold" onClick={() => setMenuOpen(false)}>
          <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground">
            <Package className="size-4" />
          </span>
          <span className="text-lg tracking-tight">Packgate</span>
        </Link>

        {user && (
          <nav className="hidden items-center gap-1 md:flex" aria-label="Main">
            {navLinks.map((link) => (
              <NavLink key={link.href} href={link.href} label={link.label} isActive={location === link.href} />
            ))}
          </nav>
        )}

        <div className="ml-auto flex items-center gap-2">
          <DisconnectedBadge />
          {canOpenAdmin(user) && (
            <Button asChild variant="outline" size="sm" className="hidden md:inline-flex">
              <Link href="/admin">
                <Shield />
                Admin
              </Link>
            </Button>
          )}
          <ThemeToggle />
          {!isLoading &&
            (user ? (
              <Suspense fallback={<div className="h-9 w-11" />}>
                <UserMenu user={user} onLogout={logout} isLoggingOut={isLoggingOut} />
              </Suspense>
            ) : (
              <SignInButton className="hidden sm:inline-flex" />
            ))}
          {!isLoading && (
            <Button
              variant="ghost"
              size="icon"
              className="md:hidden"
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
              aria-expanded={menuOpen}
              aria-controls="mobile-menu"
              onClick={() => setMenuOpen((open) => !open)}
            >
              {menuOpen ? <X /> : <Menu />}
            </Button>
          )}
        </div>
      </div>

      {menuOpen && (
        <nav id="mobile-menu" className="border-t md:hidden" aria-label="Mobile">
          <div className="container mx-auto flex flex-col gap-1 px-4 py-3">
            {user ? (
              <>
                {navLinks.map((link) => (
                  <NavLink
                    key={link.href}
                    href={link.href}
                    label={link.label}
                    isActive={location === link.href}
                    onClick={() => setMenuOpen(false)}
                  />
                ))}
                {canOpenAdmin(user) && (
                  <NavLink
                    href="/admin"
                    label="Admin"
                    isActive={location === '/admin'}
                    onClick={() => setMenuOpen(false)}
                  />
                )}
                <Button variant="ghost" className="justify-start px-3" onClick={logout} disabled={isLoggingOut}>
                  {isLoggingOut ? <Loader2 className="animate-spin" /> : <LogOut />}
                  Sign out
                </Button>
              </>
            ) : (
              <SignInButton className="w-full" onNavigate={() => setMenuOpen(false)} />
            )}
          </div>
        </nav>
      )}
      {/* Docked in the sticky header: it takes its own room and never covers a page's controls. */}
      <TaskProgressWidget />
    </header>
  );
}

function NavLink({
  href,
  label,
  isActive,
  onClick,
}: {
  href: string;
  label: string;
  isActive: boolean;
  onClick?: () => void;
}) {
  return (
    <Link
      href={href}
      onClick={onClick}
      aria-current={isActive ? 'page' : undefined}
      className={cn(
        'rounded-md px-3 py-2 text-sm font-medium transition-colors hover:bg-accent hover:text-accent-foreground',
        isActive ? 'bg-accent text-foreground' : 'text-muted-foreground',
      )}
    >
      {label}
    </Link>
  );
}

/** GitHub when the deployment has it; otherwise the e-mail sign-in form. */
function SignInButton({ className, onNavigate }: { className?: string; onNavigate?: () => void }) {
  const { data: config } = usePublicConfig();
  const [location, navigate] = useLocation();
  const search = useSearch();
  if (config?.githubSignIn) {
    return (
      <Button asChild size="sm" className={className}>
        <a href={GITHUB_SIGN_IN_PATH} onClick={onNavigate}>
          <GithubIcon />
          Sign in with GitHub
        </a>
      </Button>
    );
  }
  return (
    <Button
      size="sm"
      className={className}
      onClick={() => {
        onNavigate?.();
        navigate(`${location}${withEmailSignIn(search)}`);
      }}
    >
      Sign in
    </Button>
  );
}

import { CLIENT_ROUTES } from '@contract/client-routes';
import { CheckCircle2, FolderGit2, Link2Off, Plus } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { GithubIcon } from '../../components/github-icon';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { type AuthUser, displayUsername } from '../../lib/current-user';

/**
 * The code host card (spec seller-app §2): the GitHub connection, or, on an installation without GitHub, the
 * local folder of git repositories the server reads packages from.
 */
export function CodeHostCard({ user, hasGithub }: { user: AuthUser; hasGithub: boolean }) {
  if (!hasGithub) {
    return (
      <HostCard
        icon={<FolderGit2 />}
        label="Code Host"
        title="Local git repositories"
        badge={<Badge variant="secondary">GIT_REPOS_DIR on the server</Badge>}
        action={
          <Button asChild size="sm" variant="outline">
            <Link href="/management?action=add-package">
              <Plus />
              Add Package
            </Link>
          </Button>
        }
      >
        This installation has no GitHub sign-in: it reads packages from the git repositories in a folder on the server.
        Every repository there with a composer.json can become a package.
      </HostCard>
    );
  }
  if (user.hasAccessToken) {
    return (
      <HostCard
        icon={<GithubIcon />}
        label="GitHub"
        title={`Connected as ${user.githubUsername ?? displayUsername(user)}`}
        badge={
          <Badge className="gap-1 bg-green-600 text-white" data-testid="github-private-repos">
            <CheckCircle2 className="size-3" /> Private repositories enabled
          </Badge>
        }
      >
        Packgate can list your private repositories, clone them to build packages and keep them in sync when you push.
      </HostCard>
    );
  }
  return (
    <HostCard
      icon={<Link2Off />}
      label="GitHub"
      title="Not connected"
      action={
        <Button asChild size="sm">
          <Link href={CLIENT_ROUTES.codeHosts}>
            <GithubIcon />
            Connect GitHub
          </Link>
        </Button>
      }
    >
      Install the GitHub App on the repositories you pick to turn those that hold a composer.json into packages.
    </HostCard>
  );
}

function HostCard({
  icon,
  label,
  title,
  badge,
  action,
  children,
}: {
  icon: ReactNode;
  label: string;
  title: string;
  badge?: ReactNode;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card data-testid="code-host-card" className="flex flex-col">
      <CardHeader className="flex-row items-start gap-4 space-y-0">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary [&_svg]:size-5">
          {icon}
        </span>
        <div className="min-w-0 flex-1 space-y-1.5">
          <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</p>
          <div className="flex flex-wrap items-center gap-2">
            <CardTitle className="text-lg">{title}</CardTitle>
            {badge}
          </div>
          <CardDescription>{children}</CardDescription>
        </div>
      </CardHeader>
      {action && <CardContent className="mt-auto flex flex-wrap gap-2">{action}</CardContent>}
    </Card>
  );
}

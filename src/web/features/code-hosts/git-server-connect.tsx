import { CLIENT_ROUTES } from '@contract/client-routes';
import { Link } from 'wouter';
import { Button } from '../../components/ui/button';

// Any git server (issue 30 item 4): there is nothing to connect ahead of time. A repository is added by its URL in
// Add Package, which makes the server's connection (HTTPS with a password or token) or the package's deploy key (SSH).

export function GitServerConnect({ disabled }: { disabled: boolean }) {
  if (disabled) {
    return (
      <Button variant="outline" disabled>
        Add a repository by its URL
      </Button>
    );
  }
  return (
    <Button variant="outline" asChild>
      <Link href={`${CLIENT_ROUTES.management}?action=add-package`} data-testid="add-git-url">
        Add a repository by its URL
      </Link>
    </Button>
  );
}

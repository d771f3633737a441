import type { PortalOverview } from '@contract/portal';
import { setupCommandSteps, TOKEN_PLACEHOLDER } from '@contract/setup-commands';
import { ConfirmDialog } from '@web/components/confirm-dialog';
import { CopyButton } from '@web/components/copy-button';
import { CopyCommand } from '@web/components/copy-command';
import { FailureAlert } from '@web/components/load-error';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { formatDateTime } from '@web/lib/format-date';
import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { useRotateToken } from './portal-hooks';
import { requireTarget } from './portal-rules';

// The holder's Composer setup (the three commands, with the new token once rotated) and the license's own token.

export function SetupCard({ overview, token }: { overview: PortalOverview; token?: string }) {
  const firstLicense = overview.licenses.find((license) => license.versions.length > 0) ?? overview.licenses[0];
  const firstPackage = firstLicense ? requireTarget(firstLicense) : 'vendor/package';
  const steps = setupCommandSteps({
    repositoryUrl: overview.repositoryUrl,
    sellerSlug: overview.repositoryName,
    packageName: firstPackage,
    token: token ?? TOKEN_PLACEHOLDER,
  });
  const rows: { title: string; commands: string[]; note?: string }[] = [
    { title: 'Add the repository', commands: steps.addRepository },
    {
      title: 'Set your token',
      commands: steps.setToken,
      note: token ? undefined : `Replace ${TOKEN_PLACEHOLDER} with the token from your license e-mail.`,
    },
    { title: 'Require the package', commands: steps.require },
  ];
  return (
    <Card data-testid="portal-setup">
      <CardHeader className="p-4 sm:p-6">
        <CardTitle>Composer setup</CardTitle>
        <CardDescription>
          Repository URL: <code className="break-all font-mono text-foreground">{overview.repositoryUrl}</code>
        </CardDescription>
      </CardHeader>
      <CardContent className="px-4 pb-4 sm:px-6 sm:pb-6">
        <ol className="space-y-4">
          {rows.map((row, index) => (
            <li key={row.title} className="space-y-2">
              <p className="text-sm font-medium">
                {index + 1}. {row.title}
              </p>
              {row.commands.map((command) => (
                <CopyCommand key={command} command={command} />
              ))}
              {row.note && <p className="text-xs text-muted-foreground">{row.note}</p>}
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}

export function TokenCard({
  overview,
  newToken,
  onRotated,
}: {
  overview: PortalOverview;
  newToken?: string;
  onRotated: (token: string) => void;
}) {
  const rotate = useRotateToken();
  const [isConfirming, setConfirming] = useState(false);
  return (
    <Card>
      <CardHeader className="p-4 sm:p-6">
        <CardTitle>Your token</CardTitle>
        <CardDescription>
          Issued {formatDateTime(overview.tokenIssuedAt)}. If it may have leaked, replace it: the current token stops
          working at once, and every machine that installs your packages needs the new one.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4 px-4 pb-4 sm:px-6 sm:pb-6">
        {newToken && rotate.data && (
          <div className="space-y-2 rounded-md border border-primary/40 p-4" data-testid="portal-new-token">
            <p className="text-sm font-medium">{rotate.data.message}</p>
            <div className="flex items-stretch gap-2">
              <code className="min-w-0 flex-1 break-all rounded bg-muted px-3 py-2 font-mono text-sm">{newToken}</code>
              <CopyButton value={newToken} className="shrink-0 self-center" />
            </div>
          </div>
        )}
        <FailureAlert error={rotate.error} fallback="Failed to regenerate token" />
        <Button variant="outline" onClick={() => setConfirming(true)} disabled={rotate.isPending}>
          <KeyRound aria-hidden="true" />
          Rotate my token
        </Button>
        <ConfirmDialog
          open={isConfirming}
          onOpenChange={setConfirming}
          title="Rotate your token?"
          description="Your current token stops working immediately. The new one is shown once here and e-mailed to you."
          confirmText="Rotate token"
          variant="warning"
          isPending={rotate.isPending}
          onConfirm={() =>
            rotate.mutate(undefined, {
              onSuccess: (answer) => {
                setConfirming(false);
                onRotated(answer.token);
              },
              onError: () => setConfirming(false),
            })
          }
        />
      </CardContent>
    </Card>
  );
}

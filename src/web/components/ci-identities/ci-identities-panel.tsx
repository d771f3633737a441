import { githubActionsSteps, gitlabCiSteps } from '@contract/oidc-ci-steps';
import {
  OIDC_EXCHANGE_PATH,
  OIDC_ISSUER_PRESETS,
  OIDC_TOKEN_LIFETIME_MINUTES,
  type OidcTrust,
} from '@contract/oidc-trusts';
import { ConfirmDialog } from '@web/components/confirm-dialog';
import { CopyButton } from '@web/components/copy-button';
import { FailureAlert } from '@web/components/load-error';
import { Button } from '@web/components/ui/button';
import { formatDateTime } from '@web/lib/format-date';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useOidcTrusts, useRemoveOidcTrust } from './ci-identities-hooks';
import { CiIdentityForm } from './ci-identity-form';

// Trusted CI identities of one holder (issue 32 item 3), with the copy-paste steps for each: the holder's portal
// and the seller's Management show the same panel, each on its own API path. The steps name the seller's
// repository URL as configuration gives it (the portal's overview, Management's repository URL).

export function CiIdentitiesPanel({ basePath, repositoryUrl }: { basePath: string; repositoryUrl: string }) {
  const trusts = useOidcTrusts(basePath);
  const exchangeUrl = new URL(OIDC_EXCHANGE_PATH, repositoryUrl).toString();
  return (
    <div className="space-y-4" data-testid="ci-identities">
      <p className="text-sm text-muted-foreground">
        A CI job (GitHub Actions, GitLab CI or any OIDC issuer) whose identity matches one below trades its own token at{' '}
        <code className="break-all font-mono text-foreground">{exchangeUrl}</code> for a Composer token that works{' '}
        {OIDC_TOKEN_LIFETIME_MINUTES} minutes, only reads, and takes no seat. No secret is stored in your CI.
      </p>
      <FailureAlert error={trusts.error} fallback="The trusted CI identities could not be loaded." />
      {trusts.data && trusts.data.length === 0 && (
        <p className="text-sm text-muted-foreground">No CI identity is trusted yet.</p>
      )}
      {trusts.data && trusts.data.length > 0 && (
        <ul className="space-y-4" aria-label="Trusted CI identities">
          {trusts.data.map((trust) => (
            <li key={trust.id}>
              <TrustEntry basePath={basePath} trust={trust} repositoryUrl={repositoryUrl} />
            </li>
          ))}
        </ul>
      )}
      <CiIdentityForm basePath={basePath} defaultAudience={new URL(repositoryUrl).origin} />
    </div>
  );
}

function TrustEntry({ basePath, trust, repositoryUrl }: { basePath: string; trust: OidcTrust; repositoryUrl: string }) {
  const remove = useRemoveOidcTrust(basePath);
  const [isConfirming, setConfirming] = useState(false);
  const isGithub = trust.issuer === OIDC_ISSUER_PRESETS.githubActions;
  const steps = (isGithub ? githubActionsSteps : gitlabCiSteps)({ repositoryUrl, audience: trust.audience });
  return (
    <div className="space-y-3 rounded-md border p-4" data-testid="ci-identity">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 space-y-1 text-sm">
          <p className="font-medium">{trust.name}</p>
          <p className="break-all text-muted-foreground">
            Issuer <code>{trust.issuer}</code> · audience <code>{trust.audience}</code>
          </p>
          <p className="break-all text-muted-foreground">
            Subject <code data-testid="ci-identity-subject">{trust.subject}</code>
          </p>
          <p className="text-xs text-muted-foreground">
            {trust.lastUsedAt ? `Last exchange ${formatDateTime(trust.lastUsedAt)}` : 'Never used yet'}
          </p>
        </div>
        <Button variant="outline" size="sm" onClick={() => setConfirming(true)} disabled={remove.isPending}>
          <Trash2 aria-hidden="true" />
          Remove
        </Button>
      </div>
      <div className="space-y-2">
        <div className="flex items-center justify-between gap-2">
          <p className="text-sm font-medium">{isGithub ? 'GitHub Actions workflow' : 'GitLab CI job'}</p>
          <CopyButton value={steps} />
        </div>
        <pre
          className="overflow-x-auto rounded bg-muted p-3 font-mono text-xs"
          data-testid={isGithub ? 'ci-steps-github' : 'ci-steps-gitlab'}
        >
          {steps}
        </pre>
      </div>
      <FailureAlert error={remove.error} fallback="The CI identity could not be removed." />
      <ConfirmDialog
        open={isConfirming}
        onOpenChange={setConfirming}
        title="Stop trusting this CI identity?"
        description={`Its jobs can no longer get a Composer token. Tokens it already got stop within ${OIDC_TOKEN_LIFETIME_MINUTES} minutes.`}
        confirmText="Remove"
        variant="destructive"
        isPending={remove.isPending}
        onConfirm={() => remove.mutate(trust.id, { onSettled: () => setConfirming(false) })}
      />
    </div>
  );
}

import { CiIdentitiesPanel } from '@web/components/ci-identities/ci-identities-panel';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';

/** The holder's trusted CI identities in the portal (issue 32 item 3), with the steps for GitHub Actions and GitLab CI. */
export function PortalCiIdentitiesCard({ repositoryUrl }: { repositoryUrl: string }) {
  return (
    <Card data-testid="portal-ci-identities">
      <CardHeader className="p-4 sm:p-6">
        <CardTitle>CI without a stored secret</CardTitle>
        <CardDescription>
          Let your pipelines install without keeping a token in their settings: trust the CI identity of a repository,
          branch or environment, and copy the steps into its workflow.
        </CardDescription>
      </CardHeader>
      <CardContent className="px-4 pb-4 sm:px-6 sm:pb-6">
        <CiIdentitiesPanel basePath="/api/portal/oidc-trusts" repositoryUrl={repositoryUrl} />
      </CardContent>
    </Card>
  );
}

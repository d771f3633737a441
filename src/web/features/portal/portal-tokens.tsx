import { HolderTokensPanel } from '@web/components/holder-tokens/holder-tokens-panel';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';

/** The holder's named Composer tokens in the portal (issue 32): one per laptop, pipeline, deployment or bot. */
export function PortalTokensCard() {
  return (
    <Card data-testid="portal-holder-tokens">
      <CardHeader className="p-4 sm:p-6">
        <CardTitle>Your Composer tokens</CardTitle>
        <CardDescription>
          Give each laptop, CI pipeline, deployment and update bot its own token, so you can rotate or revoke one
          without breaking the others. Developer tokens take a seat of your license; the other kinds never do.
        </CardDescription>
      </CardHeader>
      <CardContent className="px-4 pb-4 sm:px-6 sm:pb-6">
        <HolderTokensPanel basePath="/api/portal/tokens" canCreate />
      </CardContent>
    </Card>
  );
}

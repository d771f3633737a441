import { credentialSnippets } from '@contract/credential-snippets';
import { CopyButton } from '@web/components/copy-button';
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

/** Ready snippets for every place a token goes (issue 32 item 5), naming this seller's repository host. */
export function PortalSnippetsCard({ repositoryUrl }: { repositoryUrl: string }) {
  return (
    <Card data-testid="portal-credential-snippets">
      <CardHeader className="p-4 sm:p-6">
        <CardTitle>Use a token anywhere</CardTitle>
        <CardDescription>
          Create a token of the kind each snippet names and put it where the placeholder is.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4 px-4 pb-4 sm:px-6 sm:pb-6">
        {credentialSnippets(repositoryUrl).map((snippet) => (
          <div key={snippet.id} className="space-y-2" data-testid={`snippet-${snippet.id}`}>
            <div className="flex items-center justify-between gap-2">
              <p className="text-sm font-medium">{snippet.title}</p>
              <CopyButton value={snippet.text} />
            </div>
            <pre className="overflow-x-auto rounded bg-muted p-3 font-mono text-xs">{snippet.text}</pre>
          </div>
        ))}
      </CardContent>
    </Card>
  );
}

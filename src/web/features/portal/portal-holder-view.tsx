import type { PortalOverview } from '@contract/portal';
import { formatCents } from '@contract/sales';
import { CenteredSpinner } from '@web/components/centered-spinner';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { errorMessage } from '@web/lib/api-error';
import { formatDate } from '@web/lib/format-date';
import { Download, LogOut } from 'lucide-react';
import { useState } from 'react';
import { PortalCiIdentitiesCard } from './portal-ci-identities';
import { usePortalOverview, useSignOut } from './portal-hooks';
import { LicenseCard } from './portal-license-card';
import { SetupCard, TokenCard } from './portal-setup';
import { PortalSnippetsCard, PortalTokensCard } from './portal-tokens';

/** Signed in: the holder's licenses, setup, tokens, CI identities and receipts with this seller. */
export function HolderView({ email }: { email: string }) {
  const overview = usePortalOverview(true);
  const signOut = useSignOut();
  const [newToken, setNewToken] = useState<string>();
  if (overview.isLoading) return <CenteredSpinner className="py-24" />;
  if (!overview.data) {
    return (
      <p className="text-center text-destructive" role="alert">
        {errorMessage(overview.error, 'Your licenses could not be loaded. Please refresh the page.')}
      </p>
    );
  }
  const data = overview.data;
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Your licenses</h1>
          <p className="mt-1 text-sm text-muted-foreground [overflow-wrap:anywhere]" data-testid="portal-email">
            Signed in as {email}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {/* Issue 35: the holder's own licenses and downloads with this seller, as a JSON file. */}
          <Button variant="outline" size="sm" asChild>
            <a href="/api/portal/export" download data-testid="portal-download-data">
              <Download aria-hidden="true" />
              Download my data
            </a>
          </Button>
          <Button variant="outline" size="sm" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            <LogOut aria-hidden="true" />
            Sign out
          </Button>
        </div>
      </div>

      {data.licenses.length === 0 ? (
        <Card>
          <CardContent className="p-6 text-sm text-muted-foreground">
            You hold no licenses from {data.sellerName} at the moment.
          </CardContent>
        </Card>
      ) : (
        <ul className="space-y-4" aria-label="Licenses">
          {data.licenses.map((license) => (
            <li key={license.id}>
              <LicenseCard license={license} />
            </li>
          ))}
        </ul>
      )}

      <SetupCard overview={data} token={newToken} />
      <TokenCard overview={data} newToken={newToken} onRotated={setNewToken} />
      <PortalTokensCard />
      <PortalSnippetsCard repositoryUrl={data.repositoryUrl} />
      <PortalCiIdentitiesCard repositoryUrl={data.repositoryUrl} />
      {data.receipts.length > 0 && <ReceiptsCard receipts={data.receipts} />}
    </div>
  );
}

const receiptStatus = { paid: 'Paid', refunded: 'Refunded', disputed: 'Disputed' } as const;

function ReceiptsCard({ receipts }: { receipts: PortalOverview['receipts'] }) {
  return (
    <Card>
      <CardHeader className="p-4 sm:p-6">
        <CardTitle>Receipts</CardTitle>
        <CardDescription>Your purchases from this seller.</CardDescription>
      </CardHeader>
      <CardContent className="px-4 pb-4 sm:px-6 sm:pb-6">
        <ul className="divide-y" data-testid="portal-receipts">
          {receipts.map((receipt) => (
            <li key={receipt.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-3 text-sm">
              <span className="min-w-0">
                <span className="break-all font-mono font-medium">{receipt.packageName}</span>
                <span className="text-muted-foreground"> · {receipt.tierName}</span>
              </span>
              <span className="flex items-baseline gap-2">
                <span className="font-medium">{formatCents(receipt.amountCents, receipt.currency)}</span>
                <span className="text-muted-foreground">
                  {receiptStatus[receipt.status]}
                  {receipt.isTest ? ' (test)' : ''} · {formatDate(receipt.paidAt)}
                </span>
              </span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

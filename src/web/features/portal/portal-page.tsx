import { type PortalLicense, type PortalOverview, portalMessages } from '@contract/portal';
import { formatCents } from '@contract/sales';
import { setupCommandSteps, TOKEN_PLACEHOLDER } from '@contract/setup-commands';
import { BrandHeader } from '@web/components/brand-header';
import { ConfirmDialog } from '@web/components/confirm-dialog';
import { CopyButton } from '@web/components/copy-button';
import { CopyCommand } from '@web/components/copy-command';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { errorMessage } from '@web/lib/api-error';
import { brandCssVariables } from '@web/lib/brand-theme';
import { cn } from '@web/lib/cn';
import { formatDate, formatDateTime } from '@web/lib/format-date';
import { type PublicBrand, useHostBrand } from '@web/lib/host-brand';
import { Download, KeyRound, Loader2, LogOut, Mail, Package } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { PortalCiIdentitiesCard } from './portal-ci-identities';
import {
  usePortalOverview,
  usePortalSession,
  useRequestSignInLink,
  useRotateToken,
  useSignOut,
  useVerifySignInLink,
} from './portal-hooks';
import {
  downloadsLine,
  lastUseLine,
  requireTarget,
  type StateBadge,
  stateBadge,
  termsLine,
  VERSIONS_SHOWN,
} from './portal-rules';
import { PortalSnippetsCard, PortalTokensCard } from './portal-tokens';

/**
 * `/portal` on a seller's repository host: the license holder's own page, in the seller's brand. Signed out, it
 * asks for the e-mail address and sends a sign-in link; the link (`/portal?token=`) signs in on arrival.
 */
export function PortalPage() {
  const { data: brand, isLoading } = useHostBrand();

  useEffect(() => {
    if (!brand) return;
    const previous = document.title;
    document.title = `${brand.brandName} · License Portal`;
    return () => {
      document.title = previous;
    };
  }, [brand]);

  if (isLoading) return <Spinner className="min-h-screen" />;
  if (!brand) {
    return (
      <main className="mx-auto flex min-h-screen max-w-xl items-center px-4">
        <p className="text-center text-muted-foreground" data-testid="portal-no-seller">
          {portalMessages.notAPortalHost}
        </p>
      </main>
    );
  }
  return (
    <div className="flex min-h-screen flex-col bg-background text-foreground" style={brandCssVariables(brand)}>
      <BrandHeader brand={brand} className="max-w-4xl" />
      <main className="mx-auto w-full max-w-4xl flex-1 px-3 py-8 sm:px-6 sm:py-12">
        <PortalContent brand={brand} />
      </main>
      <footer className="border-t py-6 text-center text-sm text-muted-foreground">
        <SupportLine brand={brand} />
      </footer>
    </div>
  );
}

function PortalContent({ brand }: { brand: PublicBrand }) {
  const linkToken = useRef(new URLSearchParams(window.location.search).get('token'));
  const verify = useVerifySignInLink();
  const hasStarted = useRef(false);
  useEffect(() => {
    const token = linkToken.current;
    if (!token || hasStarted.current) return;
    hasStarted.current = true;
    // The token is spent now: keep it out of the address bar and the history.
    window.history.replaceState(null, '', window.location.pathname);
    verify.mutate(token);
  }, [verify]);
  const isVerifying = Boolean(linkToken.current) && (verify.isIdle || verify.isPending);
  const session = usePortalSession(!isVerifying);

  if (isVerifying || session.isLoading) return <Spinner className="py-24" label="Signing you in" />;
  if (!session.data) {
    return (
      <SignInForm
        brand={brand}
        linkProblem={verify.isError ? errorMessage(verify.error, portalMessages.linkInvalid) : undefined}
      />
    );
  }
  return <HolderView email={session.data.email} />;
}

function SignInForm({ brand, linkProblem }: { brand: PublicBrand; linkProblem?: string }) {
  const [email, setEmail] = useState('');
  const request = useRequestSignInLink();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate(email);
  };
  return (
    <Card className="mx-auto max-w-md">
      <CardHeader>
        <h1 className="text-2xl font-bold leading-none tracking-tight">Your licenses</h1>
        <CardDescription>
          Sign in to see your {brand.brandName} licenses, the versions they cover and your Composer setup. Enter the
          e-mail address your license was issued to and we will send you a sign-in link.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {linkProblem && (
          <p className="mb-4 rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm" role="alert">
            {linkProblem}
          </p>
        )}
        {request.isSuccess ? (
          <p className="rounded-md border p-4 text-sm" role="status" data-testid="portal-link-sent">
            {request.data.message}
          </p>
        ) : (
          <form onSubmit={submit} className="space-y-4" noValidate>
            <div className="space-y-2">
              <Label htmlFor="portal-email">E-mail address</Label>
              <Input
                id="portal-email"
                type="email"
                autoComplete="email"
                value={email}
                onChange={(event) => setEmail(event.target.value)}
                placeholder="you@example.com"
              />
            </div>
            {request.isError && (
              <p className="text-sm text-destructive" role="alert">
                {errorMessage(request.error, 'The sign-in link could not be sent. Please try again.')}
              </p>
            )}
            <Button type="submit" className="w-full" disabled={request.isPending || email.trim() === ''}>
              {request.isPending ? (
                <Loader2 className="animate-spin" aria-hidden="true" />
              ) : (
                <Mail aria-hidden="true" />
              )}
              Send sign-in link
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}

function HolderView({ email }: { email: string }) {
  const overview = usePortalOverview(true);
  const signOut = useSignOut();
  const [newToken, setNewToken] = useState<string>();
  if (overview.isLoading) return <Spinner className="py-24" />;
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

const toneClass: Record<StateBadge['tone'], string> = {
  good: 'border-transparent bg-emerald-600 text-white',
  warning: 'border-transparent bg-amber-500 text-black',
  bad: 'border-transparent bg-destructive text-destructive-foreground',
  muted: 'border-transparent bg-muted text-muted-foreground',
};

function LicenseCard({ license }: { license: PortalLicense }) {
  const badge = stateBadge(license);
  const shown = license.versions.slice(0, VERSIONS_SHOWN);
  const more = license.versions.length - shown.length;
  return (
    <Card data-testid="portal-license" data-state={license.state}>
      <CardContent className="space-y-3 p-4 sm:p-6">
        <div className="flex flex-wrap items-center gap-2">
          <Package className="size-4 text-muted-foreground" aria-hidden="true" />
          <h2 className="min-w-0 break-all font-mono text-base font-semibold">{license.packageName}</h2>
          <Badge className={toneClass[badge.tone]} data-testid="portal-license-state">
            {badge.label}
          </Badge>
        </div>
        <p className="text-sm text-muted-foreground">{license.description || 'No description provided'}</p>
        <p className="text-sm">{termsLine(license)}</p>
        <p className="text-sm" data-testid="portal-license-covers">
          <span className="font-medium">Covers: </span>
          {license.covers}
        </p>
        {license.notice && license.state !== 'revoked' && (
          <p className="rounded-md border bg-muted/50 p-3 text-sm" data-testid="portal-license-notice">
            {license.notice}
          </p>
        )}
        <div className="text-sm">
          <span className="font-medium">Versions available: </span>
          {shown.length === 0 ? (
            <span className="text-muted-foreground">none</span>
          ) : (
            <span className="inline-flex flex-wrap gap-1 align-middle" data-testid="portal-license-versions">
              {shown.map((version) => (
                <code key={version} className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
                  {version}
                </code>
              ))}
              {more > 0 && <span className="text-muted-foreground">and {more} more</span>}
            </span>
          )}
        </div>
        <p className="text-sm text-muted-foreground">
          {downloadsLine(license)} · {lastUseLine(license.lastUsedAt)}
        </p>
        {(license.state === 'active' || license.state === 'expiring' || license.state === 'frozen') && (
          <CopyCommand command={`composer require ${requireTarget(license)}`} />
        )}
      </CardContent>
    </Card>
  );
}

function SetupCard({ overview, token }: { overview: PortalOverview; token?: string }) {
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

function TokenCard({
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
        {rotate.isError && (
          <p className="text-sm text-destructive" role="alert">
            {errorMessage(rotate.error, 'Failed to regenerate token')}
          </p>
        )}
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

function SupportLine({ brand }: { brand: PublicBrand }): ReactNode {
  if (!brand.supportEmail) return `Questions about your license? Contact ${brand.brandName}.`;
  return (
    <>
      Questions about your license? Write to{' '}
      <a
        href={`mailto:${brand.supportEmail}`}
        className="font-medium text-primary underline-offset-4 hover:underline"
        data-testid="portal-support-email"
      >
        {brand.supportEmail}
      </a>
      .
    </>
  );
}

function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <div className={cn('flex items-center justify-center', className)} aria-busy="true">
      <Loader2 className="size-6 animate-spin text-muted-foreground" aria-label={label} />
    </div>
  );
}

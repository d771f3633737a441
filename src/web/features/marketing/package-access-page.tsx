import { BrandHeader } from '@web/components/brand-header';
import { BrandSupportEmail } from '@web/components/brand-support-email';
import { CenteredSpinner } from '@web/components/centered-spinner';
import { CommandStep } from '@web/components/numbered-step';
import { PageEmblem } from '@web/components/page-emblem';
import { Card, CardContent } from '@web/components/ui/card';
import { brandCssVariables } from '@web/lib/brand-theme';
import { useDocumentTitle } from '@web/lib/document-title';
import { useHostBrand } from '@web/lib/host-brand';
import { Info, Lock } from 'lucide-react';
import type { ReactNode } from 'react';
import { repositoryNameFor } from './repository-name';

/**
 * What `/` shows on a seller's package host: how to reach it with Composer, in the seller's brand (name, logo,
 * colours, support e-mail) from GET /api/branding/host. A host of no seller shows it unbranded.
 */
export function PackageAccessOnlyPage() {
  const { data: brand, isLoading } = useHostBrand();

  useDocumentTitle(brand && `${brand.brandName} · Package Access`);

  // Wait for the brand rather than flash Packgate's colours at the seller's customers.
  if (isLoading) return <CenteredSpinner className="min-h-screen" />;
  if (!brand) return <PackageAccessSteps />;
  return (
    <div
      className="flex min-h-screen flex-col bg-background text-foreground"
      style={brandCssVariables(brand)}
      data-testid="branded-host"
    >
      <BrandHeader brand={brand} />
      <main className="flex-1">
        <PackageAccessSteps
          repositoryName={brand.repositoryName}
          contact={
            brand.supportEmail ? (
              <>
                Lost your token or need access? Contact {brand.brandName} at{' '}
                <BrandSupportEmail email={brand.supportEmail} />.
              </>
            ) : (
              `Lost your token or need access? Contact ${brand.brandName}, who sold you the license.`
            )
          }
        />
      </main>
    </div>
  );
}

function PackageAccessSteps({
  repositoryName,
  contact = 'Lost your token or need access? Contact the company that sold you the license.',
}: {
  /** The seller's slug, as the license e-mail names the entry; a host of no seller gets a name from its host name. */
  repositoryName?: string;
  contact?: ReactNode;
}) {
  const { origin, host, hostname, protocol } = window.location;
  // Composer keys credentials by host plus any non-default port, exactly as window.location.host spells it.
  const steps = [
    {
      title: 'Add this repository',
      description: 'Run this in your project directory to tell Composer where the packages live.',
      command: `composer config repositories.${repositoryName ?? repositoryNameFor(hostname)} composer ${origin}`,
    },
    {
      title: 'Set your access token',
      description:
        'Replace YOUR_ACCESS_TOKEN with the token from your license e-mail. Composer sends it to this host only and keeps it in auth.json, so keep that file out of version control.',
      command: `composer config bearer.${host} YOUR_ACCESS_TOKEN`,
    },
    {
      title: 'Require the package',
      description: 'Use the package name from your license e-mail. Updates arrive with composer update.',
      command: 'composer require vendor/package',
    },
  ];

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-16 sm:px-6 lg:py-24">
      <div className="text-center">
        <PageEmblem icon={Lock} />
        <h1 className="mt-6 text-3xl font-bold tracking-tight sm:text-4xl">Package Access Only</h1>
        <p className="mx-auto mt-4 max-w-xl text-muted-foreground">
          This is a private Composer repository. There is nothing to browse here: packages are installed with Composer
          and the access token you received with your license. Follow these three steps to get started.
        </p>
      </div>

      <ol className="mt-12 space-y-4">
        {steps.map((step, index) => (
          <li key={step.title}>
            <Card>
              <CardContent className="p-5 sm:p-6">
                <CommandStep number={index + 1} heading="h2" {...step} />
              </CardContent>
            </Card>
          </li>
        ))}
      </ol>

      {protocol === 'http:' && (
        <p className="mt-6 flex items-start gap-2 rounded-md border p-4 text-sm text-muted-foreground">
          <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>
            This host is served over plain HTTP, which Composer refuses by default. For local testing, allow it with{' '}
            <code className="font-mono text-foreground">composer config secure-http false</code>.
          </span>
        </p>
      )}

      <p className="mt-8 text-center text-sm text-muted-foreground">{contact}</p>
    </div>
  );
}

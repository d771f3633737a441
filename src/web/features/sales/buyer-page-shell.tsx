import type { ReactNode } from 'react';
import { BrandHeader } from '../../components/brand-header';
import { BrandSupportEmail } from '../../components/brand-support-email';
import { CenteredSpinner } from '../../components/centered-spinner';
import { brandCssVariables } from '../../lib/brand-theme';
import { useDocumentTitle } from '../../lib/document-title';
import { useHostBrand } from '../../lib/host-brand';

/**
 * A buyer's page on the seller's repository host, in the seller's brand (name, logo, colours, support e-mail) from
 * GET /api/branding/host; unbranded on a host of no seller. Waits for the brand rather than flash Packgate's colours.
 */
export function BuyerPageShell({ title, children }: { title: string; children: ReactNode }) {
  const { data: brand, isLoading } = useHostBrand();

  useDocumentTitle(brand ? `${brand.brandName} · ${title}` : title);

  if (isLoading) return <CenteredSpinner className="min-h-screen" />;
  return (
    <div
      className="flex min-h-screen flex-col bg-background text-foreground"
      style={brand ? brandCssVariables(brand) : undefined}
      data-testid={brand ? 'branded-host' : undefined}
    >
      {brand && <BrandHeader brand={brand} className="max-w-5xl" />}
      <main className="mx-auto w-full max-w-5xl flex-1 px-4 py-10 sm:px-6 lg:py-14">{children}</main>
      <footer className="border-t">
        <p className="mx-auto max-w-5xl px-4 py-6 text-center text-sm text-muted-foreground sm:px-6">
          {brand?.supportEmail ? (
            <>
              Questions about your purchase? Contact {brand.brandName} at{' '}
              <BrandSupportEmail email={brand.supportEmail} />.
            </>
          ) : (
            `Questions about your purchase? Contact ${brand?.brandName ?? 'the seller'}.`
          )}
        </p>
      </footer>
    </div>
  );
}

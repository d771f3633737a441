import { Loader2, Mail } from 'lucide-react';
import { type ReactNode, useEffect } from 'react';
import { BrandHeader } from '../../components/brand-header';
import { brandCssVariables } from '../../lib/brand-theme';
import { useHostBrand } from '../../lib/host-brand';

/**
 * A buyer's page on the seller's repository host, in the seller's brand (name, logo, colours, support e-mail) from
 * GET /api/branding/host; unbranded on a host of no seller. Waits for the brand rather than flash Packgate's colours.
 */
export function BuyerPageShell({ title, children }: { title: string; children: ReactNode }) {
  const { data: brand, isLoading } = useHostBrand();

  useEffect(() => {
    const previous = document.title;
    document.title = brand ? `${brand.brandName} · ${title}` : title;
    return () => {
      document.title = previous;
    };
  }, [brand, title]);

  if (isLoading) {
    return (
      <div className="flex min-h-screen items-center justify-center" aria-busy="true">
        <Loader2 className="size-6 animate-spin text-muted-foreground" aria-label="Loading" />
      </div>
    );
  }
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
              <a
                href={`mailto:${brand.supportEmail}`}
                className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline"
                data-testid="brand-support-email"
              >
                <Mail className="size-3.5" aria-hidden="true" />
                {brand.supportEmail}
              </a>
              .
            </>
          ) : (
            `Questions about your purchase? Contact ${brand?.brandName ?? 'the seller'}.`
          )}
        </p>
      </footer>
    </div>
  );
}

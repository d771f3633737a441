import { salesMessages } from '@contract/sales';
import { Ban, CheckCircle2, Info, Loader2, PackageX } from 'lucide-react';
import { useId, useState } from 'react';
import { useSearchParams } from 'wouter';
import { z } from 'zod';
import { FailureAlert } from '../../components/load-error';
import { LoadingLine } from '../../components/loading-line';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { errorMessage } from '../../lib/api-error';
import { cn } from '../../lib/cn';
import { hasNothingLoaded } from '../../lib/query-state';
import { useSchemaForm } from '../../lib/schema-form';
import { BuyerPageShell } from './buyer-page-shell';
import { accessText, buyerEmailProblem, formatCents, termsText, versionsText } from './pricing-rules';
import { type PurchasePage as PurchasePageData, usePurchasePage, useStartCheckout } from './sales-hooks';

/**
 * /purchase?package={id} on a seller's repository host (issue 11): the package's active tiers in the seller's brand,
 * each with a Buy button that opens checkout. `tier` preselects a tier, `email` fills the address, `cancelled=true`
 * says that checkout was left; `successUrl`, `cancelUrl` and `sig` (a purchase link's) go to the checkout as they
 * came. Without a payment provider the tiers are shown with no Buy button and the page says payments are not set up
 * (issue 28): the seller runs test purchases from Management.
 */
export function PurchasePage() {
  const [params] = useSearchParams();
  const productId = params.get('product') ?? '';
  const packageId = productId || (params.get('package') ?? '');
  const page = usePurchasePage({ id: packageId, isProduct: Boolean(productId) });
  return (
    <BuyerPageShell title={page.data ? `Buy ${page.data.package.packageName}` : 'Purchase'}>
      {!packageId ? (
        <NotForSale />
      ) : page.isLoading ? (
        <LoadingLine large className="justify-center py-20" aria-busy="true">
          Loading...
        </LoadingLine>
      ) : hasNothingLoaded(page) || !page.data ? (
        <NotForSale message={errorMessage(page.error, 'This package is not for sale')} />
      ) : (
        <Offer
          page={page.data}
          preselectedTier={params.get('tier')}
          initialEmail={params.get('email') ?? ''}
          wasCancelled={params.get('cancelled') === 'true'}
          link={linkFields(params)}
        />
      )}
    </BuyerPageShell>
  );
}

/** The fields of a purchase link that the checkout takes back as they came (the server checks them). */
type LinkFields = { currency?: string; successUrl?: string; cancelUrl?: string; sig?: string };

function linkFields(params: URLSearchParams): LinkFields {
  const fields: LinkFields = {};
  for (const key of ['currency', 'successUrl', 'cancelUrl', 'sig'] as const) {
    const value = params.get(key);
    if (value) fields[key] = value;
  }
  return fields;
}

function NotForSale({ message = 'This package is not for sale' }: { message?: string }) {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-3 py-16 text-center">
      <PackageX className="size-10 text-muted-foreground" aria-hidden="true" />
      <h1 className="text-2xl font-bold tracking-tight">Not available</h1>
      <p className="text-muted-foreground">{message}.</p>
    </div>
  );
}

/** The buyer's address, checked as the server checks it and sent trimmed. */
const buyerForm = z
  .object({ email: z.string() })
  .superRefine(({ email }, context) => {
    const problem = buyerEmailProblem(email);
    if (problem) context.addIssue({ code: 'custom', path: ['email'], message: problem });
  })
  .transform(({ email }) => ({ email: email.trim() }));

function Offer({
  page,
  preselectedTier,
  initialEmail,
  wasCancelled,
  link,
}: {
  page: PurchasePageData;
  preselectedTier: string | null;
  initialEmail: string;
  wasCancelled: boolean;
  link: LinkFields;
}) {
  const checkout = useStartCheckout();
  const emailId = useId();
  // One address for every tier's Buy button; a refused address is focused and its message stays until it is edited.
  const form = useSchemaForm(buyerForm, { email: initialEmail }, { reValidateMode: 'onSubmit' });
  const emailError = form.formState.errors.email?.message;
  const [buying, setBuying] = useState<string>();

  const buy = (tierId: string) =>
    form.handleSubmit(({ email }) => {
      setBuying(tierId);
      checkout.mutate(
        {
          ...link,
          ...(page.product ? { productId: page.product.id } : { packageId: page.package.id }),
          tierId,
          email,
        },
        { onError: () => setBuying(undefined) },
      );
    });

  return (
    <div className="space-y-8">
      <header className="space-y-3 text-center">
        <p className="text-sm font-medium uppercase tracking-wide text-muted-foreground">Buy a license</p>
        <h1 className="break-all font-mono text-2xl font-bold tracking-tight sm:text-4xl">
          {page.package.packageName}
        </h1>
        {page.package.description && (
          <p className="mx-auto max-w-2xl text-muted-foreground">{page.package.description}</p>
        )}
        {page.product && (
          <p className="mx-auto max-w-2xl text-sm" data-testid="product-packages">
            One license for every package in it:{' '}
            <span className="break-all font-mono">{page.product.packages.map((pkg) => pkg.name).join(', ')}</span>
          </p>
        )}
      </header>

      {!page.canCheckout && (
        <p
          className="mx-auto flex max-w-2xl items-start gap-2 rounded-md border border-amber-500/50 bg-amber-500/10 p-3 text-sm"
          role="status"
          data-testid="payments-not-set-up"
        >
          <Ban className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden="true" />
          <span>{salesMessages.paymentsNotSetUp}.</span>
        </p>
      )}
      {page.canCheckout && wasCancelled && (
        <p className="mx-auto flex max-w-2xl items-start gap-2 rounded-md border p-3 text-sm" role="status">
          <Info className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          Checkout was cancelled and nothing was charged. Choose a tier to try again.
        </p>
      )}

      {page.canCheckout && (
        <div className="mx-auto max-w-md space-y-2">
          <Label htmlFor={emailId}>Your email</Label>
          <Input
            id={emailId}
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            {...form.register('email', { onChange: () => form.clearErrors('email') })}
            aria-invalid={Boolean(emailError)}
            aria-describedby={`${emailId}-hint`}
          />
          <p
            id={`${emailId}-hint`}
            className={cn('text-sm', emailError ? 'text-destructive' : 'text-muted-foreground')}
          >
            {emailError ?? 'Your access token and the setup commands are sent here.'}
          </p>
        </div>
      )}

      <FailureAlert
        error={checkout.error}
        fallback="Checkout could not start. Please try again."
        className="text-center"
      />

      <ul
        className={cn(
          'grid gap-4',
          page.tiers.length === 1 ? 'mx-auto max-w-md' : page.tiers.length === 2 ? 'sm:grid-cols-2' : 'md:grid-cols-3',
        )}
      >
        {page.tiers.map((tier) => (
          <li key={tier.id}>
            <form onSubmit={buy(tier.id)} className="h-full" noValidate>
              <Card
                className={cn(
                  'flex h-full flex-col',
                  preselectedTier === tier.id && 'border-primary ring-2 ring-primary',
                )}
                data-testid="purchase-tier"
              >
                <CardHeader className="space-y-2">
                  <div className="flex items-center justify-between gap-2">
                    <CardTitle className="text-xl">{tier.name}</CardTitle>
                    {versionsText(tier) && (
                      <Badge variant="outline" className="font-mono" data-testid="tier-versions">
                        {versionsText(tier)}
                      </Badge>
                    )}
                    {tier.pricingType === 'subscription' && <Badge variant="secondary">Subscription</Badge>}
                  </div>
                  <p className="text-3xl font-bold tabular-nums" data-testid="tier-price">
                    {formatCents(tier.priceCents, tier.currency)}
                    {tier.pricingType === 'subscription' && (
                      <span className="text-base font-medium text-muted-foreground">
                        {' '}
                        / {tier.interval === 'year' ? 'year' : 'month'}
                      </span>
                    )}
                  </p>
                  <CardDescription>{termsText(tier)}</CardDescription>
                </CardHeader>
                <CardContent className="flex-1 space-y-3 text-sm">
                  {tier.description && <p>{tier.description}</p>}
                  <p className="flex items-start gap-2 text-muted-foreground">
                    <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                    {accessText(tier)}
                  </p>
                  {page.canCheckout && (
                    <p className="flex items-start gap-2 text-muted-foreground">
                      <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                      Install with Composer right after paying.
                    </p>
                  )}
                </CardContent>
                {page.canCheckout && (
                  <CardFooter>
                    <Button
                      type="submit"
                      className="w-full"
                      disabled={checkout.isPending}
                      aria-label={`Buy ${tier.name}`}
                    >
                      {buying === tier.id && <Loader2 className="animate-spin" />}
                      {tier.pricingType === 'subscription' && tier.trialDays
                        ? `Start ${tier.trialDays}-Day Trial`
                        : tier.pricingType === 'subscription'
                          ? 'Subscribe'
                          : 'Buy Now'}
                    </Button>
                  </CardFooter>
                )}
              </Card>
            </form>
          </li>
        ))}
      </ul>

      {page.canCheckout && (
        <p className="text-center text-xs text-muted-foreground">
          Payment is handled securely by Stripe. You can pay by card; receipts come by e-mail.
        </p>
      )}
    </div>
  );
}

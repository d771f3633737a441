import { ExternalLink, Plus, Tag } from 'lucide-react';
import { useFieldArray } from 'react-hook-form';
import { z } from 'zod';
import { MAX_PRICES_PER_PACKAGE, PLATFORM_FEE_PERCENT, PURCHASE_PAGE_PATH } from '../../../contract/sales';
import { CopyButton } from '../../components/copy-button';
import { DialogFormButtons, TitledDialog } from '../../components/form-dialog';
import { LoadError } from '../../components/load-error';
import { LoadingLine } from '../../components/loading-line';
import { Button } from '../../components/ui/button';
import { Tooltip } from '../../components/ui/tooltip';
import { errorMessage } from '../../lib/api-error';
import { hasNothingLoaded } from '../../lib/query-state';
import { useRepositoryUrl } from '../../lib/repository-url';
import { useSchemaForm } from '../../lib/schema-form';
import { PriceTierEditor } from './price-tier-editor';
import {
  canAddTier,
  newPriceForm,
  type PriceForm,
  type PricingProblems,
  priceFormOf,
  priceInputOf,
  pricingProblems,
  versionProblemsOf,
} from './pricing-rules';
import { type PackagePrice, usePrices, useSavePrices } from './sales-hooks';
import { TestPurchase } from './test-purchase';

/** The package a pricing dialog acts on (the packages feature hands it over through the app shell). */
/** A package, or a product (isProduct; issue 31) whose price sells every package in it. */
export type PricedPackage = { id: string; packageName: string; isProduct?: boolean };

/**
 * Pricing of one package (issue 11): one or more tiers, each a one-time purchase with months of updates or a
 * monthly or yearly subscription with optional trial days; the purchase page on the seller's host lists the
 * active ones.
 */
export function PricingDialog({ pkg, onClose }: { pkg: PricedPackage | undefined; onClose: () => void }) {
  return (
    <TitledDialog
      open={Boolean(pkg)}
      onClose={onClose}
      title="Pricing"
      description={
        <>
          What <span className="font-mono text-foreground">{pkg?.packageName}</span> costs on its purchase page. Buyers
          pay into your payout account; the platform keeps {PLATFORM_FEE_PERCENT}% of each sale.
        </>
      }
    >
      {pkg && <PricingLoader key={pkg.id} pkg={pkg} onClose={onClose} />}
    </TitledDialog>
  );
}

function PricingLoader({ pkg, onClose }: { pkg: PricedPackage; onClose: () => void }) {
  const pricing = usePrices(pkg);
  if (pricing.isLoading) {
    return <LoadingLine className="py-6 text-sm">Loading pricing...</LoadingLine>;
  }
  if (hasNothingLoaded(pricing) || !pricing.data) {
    return <LoadError error={pricing.error} fallback="Failed to load pricing" />;
  }
  return <PricingForm pkg={pkg} saved={pricing.data} onClose={onClose} />;
}

/** The tiers as typed, checked by the pricing rules (the server's, worded as it words them), each problem at its field. */
const pricingForm = z.object({ tiers: z.array(z.custom<PriceForm>()) }).superRefine(({ tiers }, context) => {
  const problems = pricingProblems(tiers);
  tiers.forEach((tier, index) => {
    for (const [field, message] of Object.entries(problems[tier.key] ?? {})) {
      context.addIssue({ code: 'custom', path: ['tiers', index, field], message });
    }
  });
});

function PricingForm({ pkg, saved, onClose }: { pkg: PricedPackage; saved: PackagePrice[]; onClose: () => void }) {
  const save = useSavePrices(pkg);
  // Problems are shown from a Save until the next edit, as the seller may be mid-way through fixing them.
  const form = useSchemaForm(pricingForm, { tiers: saved.map(priceFormOf) }, { reValidateMode: 'onSubmit' });
  // A tier's own `id` is the saved price's: the field array keeps its row identity under another name.
  const rows = useFieldArray({ control: form.control, name: 'tiers', keyName: 'rowKey' });
  const tiers = form.watch('tiers');
  const repositoryUrl = useRepositoryUrl();
  const purchaseUrl =
    repositoryUrl &&
    `${repositoryUrl}${PURCHASE_PAGE_PATH}?${pkg.isProduct ? 'product' : 'package'}=${encodeURIComponent(pkg.id)}`;
  const isForSale = saved.some((tier) => tier.isActive);

  const showProblems = (problems: PricingProblems, sent: readonly PriceForm[]) =>
    sent.forEach((tier, index) => {
      for (const [field, message] of Object.entries(problems[tier.key] ?? {})) {
        form.setError(`tiers.${index}.${field as keyof PricingProblems[string]}`, { message });
      }
    });

  const submit = form.handleSubmit(({ tiers: sent }) =>
    save.mutate(sent.map(priceInputOf), {
      onSuccess: (next) => form.reset({ tiers: next.map(priceFormOf) }),
      onError: (error) => showProblems(versionProblemsOf(errorMessage(error, ''), sent), sent),
    }),
  );

  return (
    <form
      onSubmit={submit}
      // Any edit takes the problems away until the next Save: the seller may be half-way through fixing them.
      onInput={() => form.clearErrors()}
      noValidate
      aria-label="Pricing tiers"
      className="min-w-0 space-y-4"
    >
      {rows.fields.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-md border border-dashed p-6 text-center">
          <Tag className="size-8 text-muted-foreground" aria-hidden="true" />
          <p className="font-medium">No prices yet</p>
          <p className="max-w-sm text-sm text-muted-foreground">
            This {pkg.isProduct ? 'product' : 'package'} is not for sale. Add a tier: a one-time purchase with a period
            of updates, or a subscription.
          </p>
        </div>
      ) : (
        <ol className="space-y-3">
          {rows.fields.map((row, index) => (
            <li key={row.rowKey}>
              <PriceTierEditor
                form={form}
                index={index}
                onRemove={() => {
                  rows.remove(index);
                  form.clearErrors();
                }}
              />
            </li>
          ))}
        </ol>
      )}
      {canAddTier(tiers) ? (
        <Button variant="outline" onClick={() => rows.append(newPriceForm(form.getValues('tiers')))}>
          <Plus /> Add Tier
        </Button>
      ) : (
        <Tooltip content={`A package has at most ${MAX_PRICES_PER_PACKAGE} pricing tiers`}>
          {/* A disabled button takes no pointer or focus: the wrapper carries the hint. */}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the tooltip's trigger */}
          <span tabIndex={0} className="inline-flex rounded-md">
            <Button variant="outline" disabled>
              <Plus /> Add Tier
            </Button>
          </span>
        </Tooltip>
      )}

      {isForSale && purchaseUrl && (
        <div className="space-y-2 rounded-md border bg-muted/30 p-3" data-testid="purchase-link">
          <p className="text-sm font-medium">Purchase page</p>
          <p className="break-all font-mono text-xs" data-testid="purchase-url">
            {purchaseUrl}
          </p>
          <div className="flex flex-wrap gap-2">
            <CopyButton value={purchaseUrl} label="Copy Link" />
            <Button asChild variant="outline" size="sm">
              <a href={purchaseUrl} target="_blank" rel="noreferrer">
                <ExternalLink /> Open
              </a>
            </Button>
          </div>
        </div>
      )}

      {isForSale && <TestPurchase pkg={pkg} tiers={saved.filter((tier) => tier.isActive)} />}

      <DialogFormButtons
        submitLabel="Save Pricing"
        isPending={save.isPending}
        onCancel={onClose}
        cancelLabel="Close"
        canCancelWhilePending
      />
    </form>
  );
}

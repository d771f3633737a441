import { ExternalLink, Loader2, Plus, Tag, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import {
  MAX_PRICES_PER_PACKAGE,
  PLATFORM_FEE_PERCENT,
  PURCHASE_PAGE_PATH,
  SALE_CURRENCIES,
} from '../../../contract/sales';
import { CopyButton } from '../../components/copy-button';
import { PriceInput } from '../../components/price-input';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { NativeSelect } from '../../components/ui/native-select';
import { Switch } from '../../components/ui/switch';
import { Tooltip } from '../../components/ui/tooltip';
import { errorMessage } from '../../lib/api-error';
import { hasNothingLoaded } from '../../lib/query-state';
import { useRepositoryUrl } from '../../lib/repository-url';
import {
  canAddTier,
  intervalLabels,
  newPriceForm,
  type PriceForm,
  type PriceProblems,
  type PricingProblems,
  priceFormOf,
  priceInputOf,
  pricingProblems,
  pricingTypeLabels,
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
    <Dialog open={Boolean(pkg)} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>Pricing</DialogTitle>
          <DialogDescription>
            What <span className="font-mono text-foreground">{pkg?.packageName}</span> costs on its purchase page.
            Buyers pay into your payout account; the platform keeps {PLATFORM_FEE_PERCENT}% of each sale.
          </DialogDescription>
        </DialogHeader>
        {pkg && <PricingLoader key={pkg.id} pkg={pkg} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function PricingLoader({ pkg, onClose }: { pkg: PricedPackage; onClose: () => void }) {
  const pricing = usePrices(pkg);
  if (pricing.isLoading) {
    return (
      <p className="flex items-center gap-2 py-6 text-sm text-muted-foreground">
        <Loader2 className="size-4 animate-spin" /> Loading pricing...
      </p>
    );
  }
  if (hasNothingLoaded(pricing) || !pricing.data) {
    return <p className="text-sm text-destructive">{errorMessage(pricing.error, 'Failed to load pricing')}</p>;
  }
  return <PricingForm pkg={pkg} saved={pricing.data} onClose={onClose} />;
}

function PricingForm({ pkg, saved, onClose }: { pkg: PricedPackage; saved: PackagePrice[]; onClose: () => void }) {
  const save = useSavePrices(pkg);
  const [tiers, setTiers] = useState<PriceForm[]>(() => saved.map(priceFormOf));
  const [problems, setProblems] = useState<PricingProblems>({});
  const repositoryUrl = useRepositoryUrl();
  const purchaseUrl =
    repositoryUrl &&
    `${repositoryUrl}${PURCHASE_PAGE_PATH}?${pkg.isProduct ? 'product' : 'package'}=${encodeURIComponent(pkg.id)}`;
  const isForSale = saved.some((tier) => tier.isActive);

  const update = (key: string, changes: Partial<PriceForm>) => {
    setTiers((current) => current.map((tier) => (tier.key === key ? { ...tier, ...changes } : tier)));
    setProblems({});
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = pricingProblems(tiers);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    save.mutate(tiers.map(priceInputOf), {
      onSuccess: (next) => setTiers(next.map(priceFormOf)),
      onError: (error) => setProblems(versionProblemsOf(errorMessage(error, ''), tiers)),
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Pricing tiers" className="min-w-0 space-y-4">
      {tiers.length === 0 ? (
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
          {tiers.map((tier, index) => (
            <li key={tier.key}>
              <TierEditor
                tier={tier}
                index={index}
                problems={problems[tier.key] ?? {}}
                onChange={(changes) => update(tier.key, changes)}
                onRemove={() => {
                  setTiers((current) => current.filter((other) => other.key !== tier.key));
                  setProblems({});
                }}
              />
            </li>
          ))}
        </ol>
      )}
      {canAddTier(tiers) ? (
        <Button variant="outline" onClick={() => setTiers((current) => [...current, newPriceForm(current)])}>
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

      <DialogFooter>
        <Button variant="outline" onClick={onClose}>
          Close
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending && <Loader2 className="animate-spin" />}
          Save Pricing
        </Button>
      </DialogFooter>
    </form>
  );
}

function TierEditor({
  tier,
  index,
  problems,
  onChange,
  onRemove,
}: {
  tier: PriceForm;
  index: number;
  problems: PriceProblems;
  onChange: (changes: Partial<PriceForm>) => void;
  onRemove: () => void;
}) {
  const id = (field: string) => `tier-${tier.key}-${field}`;
  const error = (field: keyof PriceProblems) =>
    problems[field] && (
      <p id={id(`${field}-error`)} className="text-sm text-destructive">
        {problems[field]}
      </p>
    );
  const invalid = (field: keyof PriceProblems) => ({
    'aria-invalid': Boolean(problems[field]),
    'aria-describedby': problems[field] ? id(`${field}-error`) : undefined,
  });

  return (
    <fieldset
      className="min-w-0 space-y-3 rounded-md border p-4"
      data-testid="pricing-tier"
      aria-label={`Tier ${index + 1}`}
    >
      <div className="flex flex-wrap items-center gap-3">
        <div className="min-w-0 flex-1 basis-full space-y-1.5 sm:basis-auto">
          <Label htmlFor={id('name')}>Name</Label>
          <Input
            id={id('name')}
            value={tier.name}
            maxLength={100}
            onChange={(event) => onChange({ name: event.target.value })}
            {...invalid('name')}
          />
          {error('name')}
        </div>
        <div className="flex w-full items-center gap-2 sm:w-auto sm:pt-5">
          <Switch
            id={id('active')}
            checked={tier.isActive}
            onCheckedChange={(isActive) => onChange({ isActive })}
            aria-label="Active"
          />
          <Label htmlFor={id('active')} className="text-sm">
            Active
          </Label>
          <Tooltip content={tier.salesCount > 0 ? 'Has sales: saving keeps it, inactive' : 'Remove tier'}>
            <Button
              variant="ghost"
              size="icon"
              className="ml-auto size-9 text-muted-foreground hover:text-destructive sm:ml-0"
              onClick={onRemove}
              aria-label={`Remove ${tier.name || `tier ${index + 1}`}`}
            >
              <Trash2 />
            </Button>
          </Tooltip>
        </div>
      </div>

      <div className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-1.5">
          <Label htmlFor={id('type')}>Type</Label>
          <NativeSelect
            id={id('type')}
            value={tier.pricingType}
            onChange={(event) =>
              onChange({ pricingType: event.target.value === 'subscription' ? 'subscription' : 'one_time' })
            }
          >
            <option value="one_time">{pricingTypeLabels.one_time}</option>
            <option value="subscription">{pricingTypeLabels.subscription}</option>
          </NativeSelect>
        </div>
        {tier.pricingType === 'one_time' ? (
          <div className="space-y-1.5">
            <Label htmlFor={id('updateMonths')}>Months of updates</Label>
            <Input
              id={id('updateMonths')}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              value={tier.updateMonths}
              onChange={(event) => onChange({ updateMonths: event.target.value })}
              {...invalid('updateMonths')}
            />
            {error('updateMonths') ?? (
              <p className="text-xs text-muted-foreground">
                Versions released in this period stay installable for good; later ones need a new purchase.
              </p>
            )}
          </div>
        ) : (
          <div className="grid grid-cols-2 gap-3">
            <div className="space-y-1.5">
              <Label htmlFor={id('interval')}>Billed</Label>
              <NativeSelect
                id={id('interval')}
                value={tier.interval}
                onChange={(event) => onChange({ interval: event.target.value === 'year' ? 'year' : 'month' })}
              >
                <option value="month">{intervalLabels.month}</option>
                <option value="year">{intervalLabels.year}</option>
              </NativeSelect>
            </div>
            <div className="space-y-1.5">
              <Label htmlFor={id('trialDays')}>Trial days</Label>
              <Input
                id={id('trialDays')}
                type="number"
                inputMode="numeric"
                min={0}
                step={1}
                placeholder="None"
                value={tier.trialDays}
                onChange={(event) => onChange({ trialDays: event.target.value })}
                {...invalid('trialDays')}
              />
            </div>
            <div className="col-span-2">{error('trialDays')}</div>
          </div>
        )}
      </div>

      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid grid-cols-[1fr_6.5rem] gap-3">
          <div className="space-y-1.5">
            <Label htmlFor={id('price')}>Price</Label>
            <PriceInput
              id={id('price')}
              placeholder="49.00"
              value={tier.price}
              onValueChange={(price) => onChange({ price })}
              {...invalid('price')}
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={id('currency')}>Currency</Label>
            <NativeSelect
              id={id('currency')}
              value={tier.currency}
              onChange={(event) => onChange({ currency: event.target.value })}
              {...invalid('currency')}
            >
              {SALE_CURRENCIES.map((currency) => (
                <option key={currency} value={currency}>
                  {currency.toUpperCase()}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="col-span-2 empty:hidden">
            {error('price')}
            {error('currency')}
          </div>
        </div>
        <div className="space-y-1.5 sm:col-span-2">
          <Label htmlFor={id('versionConstraint')}>Versions (optional)</Label>
          <Input
            id={id('versionConstraint')}
            maxLength={200}
            className="font-mono"
            placeholder="Every version; or a Composer constraint such as ^2.0"
            value={tier.versionConstraint}
            onChange={(event) => onChange({ versionConstraint: event.target.value })}
            {...invalid('versionConstraint')}
          />
          {error('versionConstraint') ?? (
            <p className="text-xs text-muted-foreground">
              The license bought with this tier covers these versions only, e.g. ^2.0 for a "Version 2 licence".
            </p>
          )}
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={id('description')}>Description (optional)</Label>
          <Input
            id={id('description')}
            maxLength={1000}
            placeholder="e.g. For one production site"
            value={tier.description}
            onChange={(event) => onChange({ description: event.target.value })}
          />
        </div>
      </div>
      {tier.salesCount > 0 && (
        <Badge variant="secondary">
          {tier.salesCount} {tier.salesCount === 1 ? 'sale' : 'sales'}
        </Badge>
      )}
    </fieldset>
  );
}

import {
  AlertTriangle,
  ArrowLeft,
  BarChart3,
  FlaskConical,
  Globe,
  Info,
  KeyRound,
  Loader2,
  type LucideIcon,
  PackageOpen,
  Server,
  ShieldCheck,
  XCircle,
} from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import { PlanCardHeader, PlanFeatureList } from '../../components/plan-card-parts';
import { tierIcon } from '../../components/plan-chooser';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import { isAdmin, useCurrentUser } from '../../lib/current-user';
import { hasNothingLoaded } from '../../lib/query-state';
import { trialRemainingText } from '../../lib/subscriptions/banner-rules';
import { type Plan, trialDaysOf, usePlans } from '../../lib/subscriptions/plans';
import { useSubscriptionStatus } from '../../lib/subscriptions/subscription-status';
import { formatBillingDate } from './billing-format';
import { useStartCheckout, useStripeConfig } from './billing-hooks';
import { CancelSubscriptionDialog } from './cancel-subscription-dialog';
import {
  currentPlanTier,
  defaultSelectedTier,
  isChangingPlan,
  type PlanBadge,
  planBadges,
  planButton,
  planIconName,
  subscribePageTitle,
  tiersByPrice,
} from './plan-rules';
import { SubscribeFaq } from './subscribe-faq';

const BENEFITS: { title: string; description: string; icon: LucideIcon }[] = [
  {
    title: 'Your own Composer repository',
    description:
      'A repository host of your own that the real composer client installs from, with tags as versions and branches as dev versions.',
    icon: Server,
  },
  {
    title: 'Licenses that enforce themselves',
    description:
      'Expiry dates, download limits and update-only access are checked on every request; a revoked token stops at once.',
    icon: KeyRound,
  },
  {
    title: 'Your brand, your domain',
    description:
      'Your name, logo and colours on the package host and in license e-mails, on a custom domain such as composer.yourcompany.com.',
    icon: Globe,
  },
  {
    title: 'Usage you can see',
    description:
      'Downloads per package and license holder, and a REST API v1, with tokens limited to the permissions you choose, that lets your store issue and revoke licenses on its own. Every plan includes both.',
    icon: BarChart3,
  },
];

/** /subscribe (spec admin §2, §4, §5): choose or change the paid plan. */
export function SubscribePage() {
  const [params, setParams] = useSearchParams();
  const { data: user } = useCurrentUser();
  const tiersQuery = usePlans();
  const configQuery = useStripeConfig();
  const statusQuery = useSubscriptionStatus();
  const status = statusQuery.data;
  const [wasCheckoutCancelled, setWasCheckoutCancelled] = useState(false);
  // undefined: the default selection applies; null: cleared after a failed checkout.
  const [selectedTier, setSelectedTier] = useState<string | null | undefined>(undefined);
  const [isCancelOpen, setIsCancelOpen] = useState(false);
  const { startCheckout, pendingTier } = useStartCheckout(() => setSelectedTier(null));

  // Back from a checkout the seller left: say so once, then drop the query (spec §2).
  const isCancelledReturn = params.get('cancelled') === 'true';
  useEffect(() => {
    if (!isCancelledReturn) return;
    setWasCheckoutCancelled(true);
    setParams(
      (current) => {
        current.delete('cancelled');
        return current;
      },
      { replace: true },
    );
  }, [isCancelledReturn, setParams]);

  if (tiersQuery.isLoading || configQuery.isLoading || statusQuery.isLoading) {
    return (
      <div className="flex min-h-[50vh] items-center justify-center" aria-busy="true">
        <Loader2 className="size-6 animate-spin text-muted-foreground" aria-label="Loading" />
      </div>
    );
  }
  if (isAdmin(user)) return <AdministratorNotice />;
  if (hasNothingLoaded(tiersQuery) || hasNothingLoaded(configQuery) || !configQuery.data) return <ConfigurationError />;

  const tiers = tiersByPrice(tiersQuery.data?.tiers);
  const trialDays = trialDaysOf(tiersQuery.data);
  const isChanging = isChangingPlan(params.get('intent'), status);
  const currentTierId = currentPlanTier(status);
  const selected = selectedTier === undefined ? defaultSelectedTier(tiers, status) : selectedTier;
  const currentTier = tiers.find((tier) => tier.id === currentTierId);
  const billingEnabled = configQuery.data.billingEnabled;
  const trialTier = tiers.find((tier) => tier.id === (status?.tier ?? status?.selectedTier));

  const choose = (tierId: string) => {
    setSelectedTier(tierId);
    startCheckout(tierId);
  };

  return (
    <div className="container mx-auto space-y-12 px-4 py-10 sm:py-12">
      <header className="mx-auto max-w-2xl space-y-3 text-center">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{subscribePageTitle(isChanging)}</h1>
        <p className="text-muted-foreground">
          {currentTier
            ? `You are on the ${currentTier.name} plan. Pick another plan to change it; your packages, licenses and branding stay as they are.`
            : status?.subscriptionStatus === 'trial'
              ? `Free trial${trialTier ? ` of the ${trialTier.name} plan` : ''}: ${trialRemainingText(status.trialDaysLeft, status.trialHoursLeft)}. Subscribe to keep your packages serving when it ends.`
              : 'Pick the plan that fits your catalogue. Prices are per month; cancel at any time.'}
        </p>
      </header>

      {wasCheckoutCancelled && (
        <Notice icon={XCircle} testId="checkout-cancelled">
          Checkout was cancelled and nothing was charged. Pick a plan whenever you are ready.
        </Notice>
      )}
      {!billingEnabled ? (
        <Notice icon={Info} testId="billing-off-notice">
          Billing is off on this installation: the plan you choose is activated at once, with no charge.
        </Notice>
      ) : configQuery.data.sandboxMode ? (
        <Notice icon={FlaskConical} testId="test-mode-notice">
          Payments are in test mode: checkout accepts Stripe’s test cards and no real payment is taken.
        </Notice>
      ) : null}

      {tiers.length === 0 ? (
        <Card className="mx-auto max-w-md text-center">
          <CardHeader>
            <PackageOpen className="mx-auto size-8 text-muted-foreground" aria-hidden="true" />
            <CardTitle className="text-lg">No Pricing Tiers Available</CardTitle>
            <CardDescription>No plans are on offer yet. Please check back later or contact support.</CardDescription>
          </CardHeader>
          <CardFooter className="justify-center">
            <Button asChild variant="outline">
              <Link href="/dashboard">Back to Dashboard</Link>
            </Button>
          </CardFooter>
        </Card>
      ) : (
        <div
          className={cn(
            'grid gap-6 pt-3 md:grid-cols-2',
            tiers.length >= 4 ? 'xl:grid-cols-4' : tiers.length === 3 ? 'lg:grid-cols-3' : '',
          )}
        >
          {tiers.map((tier) => (
            <SubscribePlanCard
              key={tier.id}
              tier={tier}
              badges={planBadges(tier, currentTierId)}
              button={planButton({
                tierId: tier.id,
                currentTierId,
                isChanging,
                isCheckoutPending: Boolean(pendingTier),
              })}
              isSelected={selected === tier.id}
              isPending={pendingTier === tier.id}
              onChoose={() => choose(tier.id)}
            />
          ))}
        </div>
      )}

      {isChanging && currentTier && (
        <div className="mx-auto flex max-w-3xl flex-col items-center gap-3 rounded-lg border p-5 text-center sm:flex-row sm:text-left">
          <p className="flex-1 text-sm text-muted-foreground">
            Rather stop? Cancelling keeps the {currentTier.name} plan until the end of the period you have paid for.
          </p>
          <Button variant="outline" onClick={() => setIsCancelOpen(true)} disabled={Boolean(pendingTier)}>
            Cancel Subscription
          </Button>
        </div>
      )}

      <section aria-labelledby="subscribe-benefits">
        <h2 id="subscribe-benefits" className="sr-only">
          What every plan includes
        </h2>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {BENEFITS.map(({ title, description, icon: Icon }) => (
            <Card key={title}>
              <CardContent className="space-y-2 p-5">
                <Icon className="size-5 text-primary" aria-hidden="true" />
                <h3 className="font-semibold">{title}</h3>
                <p className="text-sm text-muted-foreground">{description}</p>
              </CardContent>
            </Card>
          ))}
        </div>
      </section>

      <SubscribeFaq trialDays={trialDays} billingEnabled={billingEnabled} />

      <CancelSubscriptionDialog
        open={isCancelOpen}
        onOpenChange={setIsCancelOpen}
        planName={currentTier?.name}
        periodEnd={status?.expiresAt ? formatBillingDate(status.expiresAt) : undefined}
      />
    </div>
  );
}

function SubscribePlanCard({
  tier,
  badges,
  button,
  isSelected,
  isPending,
  onChoose,
}: {
  tier: Plan;
  badges: PlanBadge[];
  button: ReturnType<typeof planButton>;
  isSelected: boolean;
  isPending: boolean;
  onChoose: () => void;
}) {
  const Icon = tierIcon(planIconName(tier));
  const isCurrent = badges.includes('Current Plan');
  return (
    <Card
      data-testid="subscribe-plan-card"
      data-tier-id={tier.id}
      data-selected={isSelected}
      className={cn('relative flex flex-col', isSelected && 'border-primary ring-2 ring-primary/60')}
    >
      <PlanCardHeader tier={tier} icon={Icon} />
      <CardContent className="flex-1 space-y-4">
        <dl className="grid grid-cols-2 gap-2 text-sm">
          <Limit label="Customers" value={tier.maxCustomers} />
          <Limit label="Packages" value={tier.maxPackages} />
        </dl>
        <PlanFeatureList features={tier.features} />
      </CardContent>
      <CardFooter>
        <Button
          className="w-full"
          variant={isCurrent ? 'secondary' : isSelected ? 'default' : 'outline'}
          disabled={button.disabled}
          onClick={onChoose}
        >
          {isPending && <Loader2 className="animate-spin" />}
          {button.label}
        </Button>
      </CardFooter>
      {badges.length > 0 && (
        <div className="absolute -top-3 left-1/2 flex -translate-x-1/2 gap-2 whitespace-nowrap">
          {badges.map((badge) => (
            <Badge
              key={badge}
              data-testid="plan-badge"
              variant={badge === 'Most Popular' ? 'default' : 'secondary'}
              className={cn(
                badge === 'Current Plan' && 'bg-green-600 text-white',
                badge === 'Recommended' && 'border-primary/40',
              )}
            >
              {badge}
            </Badge>
          ))}
        </div>
      )}
    </Card>
  );
}

/** "Unlimited" for -1, "Up to N" otherwise (spec admin §2). */
const limitLabel = (value: number) => (value < 0 ? 'Unlimited' : `Up to ${value}`);

function Limit({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-md bg-muted/60 px-3 py-2">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="font-semibold">{limitLabel(value)}</dd>
    </div>
  );
}

function Notice({ icon: Icon, testId, children }: { icon: LucideIcon; testId: string; children: ReactNode }) {
  return (
    <p
      className="mx-auto flex max-w-3xl items-start gap-2 rounded-lg border bg-muted/40 px-4 py-3 text-sm"
      data-testid={testId}
      role="status"
    >
      <Icon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
      <span>{children}</span>
    </p>
  );
}

/** Administrators use every feature without a plan: there is nothing to choose here. */
function AdministratorNotice() {
  return (
    <CenteredNotice
      icon={<ShieldCheck className="size-8 text-primary" aria-hidden="true" />}
      title="Administrator Access"
      description="Administrators have full access to every feature and need no subscription."
    />
  );
}

/** Spec admin §2: the plans or the payment configuration could not be read. */
function ConfigurationError() {
  return (
    <CenteredNotice
      role="alert"
      icon={<AlertTriangle className="size-8 text-destructive" aria-hidden="true" />}
      title="Configuration Error"
      description="Unable to load subscription configuration. Please contact support."
    />
  );
}

/** A page-filling card with one message and the way back to the dashboard. */
function CenteredNotice({
  icon,
  title,
  description,
  role,
}: {
  icon: ReactNode;
  title: string;
  description: string;
  role?: 'alert';
}) {
  return (
    <div className="container mx-auto flex min-h-[50vh] items-center justify-center px-4 py-12">
      <Card className="max-w-md text-center" role={role}>
        <CardHeader className="items-center">
          {icon}
          <CardTitle className="text-xl">{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardFooter className="justify-center">
          <Button asChild>
            <Link href="/dashboard">
              <ArrowLeft />
              Back to Dashboard
            </Link>
          </Button>
        </CardFooter>
      </Card>
    </div>
  );
}

import { AlertTriangle, CheckCircle2, Clock, Loader2, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { PlanChooser } from '../../components/plan-chooser';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import { type AuthUser, displayUsername, isAdmin, useCurrentUser } from '../../lib/current-user';
import { expiredBannerTitle, trialRemainingText, trialUrgency } from '../../lib/subscriptions/banner-rules';
import { formatMonthlyPrice, usePricingTiers } from '../../lib/subscriptions/pricing-tiers';
import { useStartTrial } from '../../lib/subscriptions/start-trial';
import { type SubscriptionStatus, useSubscriptionStatus } from '../../lib/subscriptions/subscription-status';

/** /dashboard: a new seller first picks a plan; everyone else sees the welcome and subscription cards. */
export function DashboardPage() {
  const { data: user } = useCurrentUser();
  const status = useSubscriptionStatus();
  if (!user) return null;

  // A new seller's first view is the plan chooser: wait for the status rather than flash the welcome card.
  if (!isAdmin(user) && status.isLoading) {
    return (
      <div className="flex min-h-[50vh] items-center justify-center" aria-busy="true">
        <Loader2 className="size-6 animate-spin text-muted-foreground" aria-label="Loading" />
      </div>
    );
  }

  if (!isAdmin(user) && status.data?.subscriptionStatus === 'tier_selection_required') {
    return <FirstTimePlanChooser selectedTier={status.data.selectedTier ?? user.selectedTier} />;
  }

  return (
    <div className="container mx-auto space-y-6 px-4 py-10">
      <WelcomeCard user={user} />
      <SubscriptionCard user={user} status={status.data} isLoading={status.isLoading} isError={status.isError} />
    </div>
  );
}

function FirstTimePlanChooser({ selectedTier }: { selectedTier: string | null }) {
  const { startTrial, pendingTier } = useStartTrial();
  const { data: tiers } = usePricingTiers();
  const trialDays = tiers?.trialDays;
  return (
    <div className="container mx-auto space-y-10 px-4 py-12">
      <div className="mx-auto max-w-2xl space-y-3 text-center">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Choose Your Plan</h1>
        <p className="text-muted-foreground">
          Pick the plan that fits you to start your {trialDays ? `${trialDays}-day ` : ''}free trial. No credit card
          needed; you can change plans later.
        </p>
      </div>
      <PlanChooser
        mode="trial"
        onSelect={startTrial}
        pendingTierId={pendingTier}
        selectedTierId={selectedTier}
        className="pt-3"
      />
    </div>
  );
}

function WelcomeCard({ user }: { user: AuthUser }) {
  const name = user.displayName || displayUsername(user);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-2xl">Welcome, {name}</CardTitle>
        <CardDescription>
          {isAdmin(user)
            ? 'You are signed in as an administrator.'
            : 'Here is where your Packgate subscription stands.'}
        </CardDescription>
      </CardHeader>
      {isAdmin(user) && (
        <CardContent>
          <Button asChild>
            <Link href="/admin">Open Admin Dashboard</Link>
          </Button>
        </CardContent>
      )}
    </Card>
  );
}

function SubscriptionCard({
  user,
  status,
  isLoading,
  isError,
}: {
  user: AuthUser;
  status: SubscriptionStatus | undefined;
  isLoading: boolean;
  isError: boolean;
}) {
  if (isAdmin(user)) {
    return (
      <StatusCard icon={<ShieldCheck />} tone="primary" title="Administrator Access" badge={<Badge>Admin</Badge>}>
        You have full access to every platform feature. Administrators need no subscription.
      </StatusCard>
    );
  }
  if (isLoading) {
    return (
      <Card data-testid="subscription-card">
        <CardContent className="flex items-center gap-2 p-6 text-sm text-muted-foreground">
          <Loader2 className="size-4 animate-spin" /> Loading subscription...
        </CardContent>
      </Card>
    );
  }
  if (isError || !status) {
    return (
      <StatusCard icon={<AlertTriangle />} tone="destructive" title="Unable to load subscription details">
        Please refresh the page in a moment.
      </StatusCard>
    );
  }
  return <SellerSubscription status={status} />;
}

function SellerSubscription({ status }: { status: SubscriptionStatus }) {
  const { data: tiers } = usePricingTiers();
  const tier = status.tier ? tiers?.tiers[status.tier] : undefined;
  const planName = tier?.name ?? status.tier ?? undefined;
  const price = tier ? `${formatMonthlyPrice(tier.priceCents, tier.currency)}/month` : undefined;
  const until = status.expiresAt ? formatDate(status.expiresAt) : undefined;

  switch (status.subscriptionStatus) {
    case 'active':
      return (
        <StatusCard
          icon={<CheckCircle2 />}
          tone="success"
          title={planName ? `${planName} Plan` : 'Active Plan'}
          badge={<Badge className="bg-green-600 text-white">Active</Badge>}
        >
          {[price, until && `Renews on ${until}`].filter(Boolean).join(' · ') || status.message}
        </StatusCard>
      );
    case 'trial': {
      const urgency = trialUrgency(status.trialDaysLeft);
      return (
        <StatusCard
          icon={<Clock />}
          tone={urgency === 'normal' ? 'primary' : urgency === 'warning' ? 'warning' : 'destructive'}
          title={planName ? `${planName} Plan · Free Trial` : 'Free Trial'}
          badge={<Badge variant="secondary">Trial</Badge>}
          action={
            <Button asChild size="sm" variant="outline">
              <Link href="/subscribe">Subscribe Now</Link>
            </Button>
          }
        >
          {trialRemainingText(status.trialDaysLeft, status.trialHoursLeft)}
          {until ? ` · ends ${until}` : ''}
        </StatusCard>
      );
    }
    case 'trial_expired':
    case 'inactive':
    case 'expired':
      return (
        <StatusCard
          icon={<AlertTriangle />}
          tone="destructive"
          title={expiredBannerTitle(status)}
          badge={
            <Badge variant="destructive">{status.subscriptionStatus === 'inactive' ? 'Inactive' : 'Expired'}</Badge>
          }
          action={
            <Button asChild size="sm">
              <Link href="/subscribe">Subscribe Now</Link>
            </Button>
          }
        >
          {status.message}
        </StatusCard>
      );
    default:
      return (
        <StatusCard icon={<Clock />} tone="primary" title="No Plan Selected">
          {status.message}
        </StatusCard>
      );
  }
}

const toneStyle = {
  primary: 'bg-primary/10 text-primary',
  success: 'bg-green-600/10 text-green-600',
  warning: 'bg-amber-500/15 text-amber-600',
  destructive: 'bg-destructive/10 text-destructive',
} as const;

function StatusCard({
  icon,
  tone,
  title,
  badge,
  action,
  children,
}: {
  icon: ReactNode;
  tone: keyof typeof toneStyle;
  title: string;
  badge?: ReactNode;
  action?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Card data-testid="subscription-card">
      <CardHeader className="flex-row flex-wrap items-center gap-4 space-y-0">
        <span className={cn('flex size-10 items-center justify-center rounded-lg [&_svg]:size-5', toneStyle[tone])}>
          {icon}
        </span>
        <div className="min-w-0 flex-1 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <CardTitle className="text-lg">{title}</CardTitle>
            {badge}
          </div>
          {children && <CardDescription>{children}</CardDescription>}
        </div>
        {action}
      </CardHeader>
    </Card>
  );
}

const formatDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });

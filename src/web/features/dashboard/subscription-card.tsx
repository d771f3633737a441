import { AlertTriangle, CheckCircle2, Clock, Loader2, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import { type AuthUser, isAdmin } from '../../lib/current-user';
import { formatDate } from '../../lib/format-date';
import { usePermission } from '../../lib/permissions';
import { expiredBannerTitle, trialRemainingText, trialUrgency } from '../../lib/subscriptions/banner-rules';
import { formatMonthlyPrice, usePlans } from '../../lib/subscriptions/plans';
import type { SubscriptionStatus } from '../../lib/subscriptions/subscription-status';

/** The subscription card in every state (spec seller-app §2): administrator, active, trial, expired, or unknown. */
export function SubscriptionCard({
  user,
  status,
  isLoading,
}: {
  user: AuthUser;
  status: SubscriptionStatus | undefined;
  isLoading: boolean;
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
  // A refetch that fails keeps the status loaded before (issue 12).
  if (!status) {
    return (
      <StatusCard icon={<AlertTriangle />} tone="destructive" title="Unable to load subscription details">
        Please refresh the page in a moment.
      </StatusCard>
    );
  }
  return <SellerSubscription status={status} />;
}

function SellerSubscription({ status }: { status: SubscriptionStatus }) {
  const { data: tiers } = usePlans();
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
          action={
            <Button asChild size="sm" variant="outline">
              <Link href="/subscribe?intent=change">Change Plan</Link>
            </Button>
          }
        >
          {[price, until && `Paid through ${until}`].filter(Boolean).join(' · ') || status.message}
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
            <Button asChild size="sm">
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
  // The plan is the owner's to change (issue 33): other roles see where it stands, without the buttons.
  const managePlan = usePermission('plan:manage');
  return (
    // As tall as its content, with the action under the text: stretched to the card beside it, it showed a blank band.
    <Card data-testid="subscription-card" className="self-start">
      <CardHeader className="flex-row items-start gap-4 space-y-0">
        <span
          className={cn('flex size-10 shrink-0 items-center justify-center rounded-lg [&_svg]:size-5', toneStyle[tone])}
        >
          {icon}
        </span>
        <div className="min-w-0 flex-1 space-y-1.5">
          <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Subscription</p>
          <div className="flex flex-wrap items-center gap-2">
            <CardTitle className="text-lg">{title}</CardTitle>
            {badge}
          </div>
          {children && <CardDescription>{children}</CardDescription>}
        </div>
      </CardHeader>
      {action && managePlan.allowed && <CardContent className="flex flex-wrap gap-2">{action}</CardContent>}
    </Card>
  );
}

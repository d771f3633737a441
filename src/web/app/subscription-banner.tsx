import { AlertTriangle, Clock } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '../components/ui/button';
import { cn } from '../lib/cn';
import { useCurrentUser } from '../lib/current-user';
import { usePermission } from '../lib/permissions';
import {
  bannerKind,
  expiredBannerTitle,
  type TrialUrgency,
  trialRemainingText,
  trialUrgency,
} from '../lib/subscriptions/banner-rules';
import { usePlans } from '../lib/subscriptions/plans';
import { type SubscriptionStatus, useSubscriptionStatus } from '../lib/subscriptions/subscription-status';

const urgencyStyle: Record<TrialUrgency, string> = {
  normal: 'border-primary/30 bg-primary/10 text-foreground',
  warning: 'border-amber-500/40 bg-amber-500/15 text-foreground',
  urgent: 'border-destructive/40 bg-destructive/15 text-foreground',
};

function useTierName(tierId: string | null | undefined): string | undefined {
  const { data } = usePlans();
  return tierId ? (data?.tiers[tierId]?.name ?? undefined) : undefined;
}

export function TrialBanner({ status }: { status: SubscriptionStatus }) {
  const urgency = trialUrgency(status.trialDaysLeft);
  const tierName = useTierName(status.tier ?? status.selectedTier);
  // The plan is the owner's to change (issue 33): other roles see the banner without the button.
  const managePlan = usePermission('plan:manage').allowed;
  return (
    <div
      className={cn('border-b', urgencyStyle[urgency])}
      data-testid="trial-banner"
      data-urgency={urgency}
      role="status"
    >
      <div className="container mx-auto flex items-center justify-between gap-3 px-4 py-2.5">
        {/* One sentence that wraps like prose on a phone, beside the button rather than under it. */}
        <p className="flex min-w-0 items-start gap-2 text-sm">
          <Clock className={cn('mt-0.5 size-4 shrink-0', urgency === 'urgent' ? 'text-destructive' : 'text-primary')} />
          <span>
            <span className="font-semibold">Free Trial{tierName ? ` · ${tierName} plan` : ''}</span>
            <span className="text-muted-foreground"> — </span>
            <span data-testid="trial-remaining">{trialRemainingText(status.trialDaysLeft, status.trialHoursLeft)}</span>
          </span>
        </p>
        {managePlan && (
          <Button asChild size="sm" className="shrink-0" variant={urgency === 'normal' ? 'outline' : 'default'}>
            <Link href="/subscribe">Subscribe Now</Link>
          </Button>
        )}
      </div>
    </div>
  );
}

export function ExpiredBanner({ status }: { status: SubscriptionStatus }) {
  const managePlan = usePermission('plan:manage').allowed;
  return (
    <div className="border-b border-destructive/40 bg-destructive/10" data-testid="expired-banner" role="alert">
      <div className="container mx-auto flex flex-wrap items-center justify-between gap-3 px-4 py-2.5">
        <div className="flex items-start gap-2 text-sm">
          <AlertTriangle className="mt-0.5 size-4 shrink-0 text-destructive" />
          <div>
            <p className="font-semibold">{expiredBannerTitle(status)}</p>
            {status.message && <p className="text-muted-foreground">{status.message}</p>}
          </div>
        </div>
        {managePlan && (
          <Button asChild size="sm">
            <Link href="/subscribe">Subscribe Now</Link>
          </Button>
        )}
      </div>
    </div>
  );
}

/** The trial or expired banner for the signed-in seller, or nothing (admins, active, choosing a tier). */
export function SubscriptionBanner() {
  const { data: user } = useCurrentUser();
  const { data: status } = useSubscriptionStatus();
  const kind = bannerKind(user, status);
  if (!status || kind === 'none') return null;
  return kind === 'trial' ? <TrialBanner status={status} /> : <ExpiredBanner status={status} />;
}

import type { BillingOverview } from '@contract/billing';

type Facts = Pick<
  BillingOverview,
  'subscriptionStatus' | 'cancelAtPeriodEnd' | 'trialEndsAt' | 'currentPeriodEnd' | 'licenseHolderAccessUntil'
>;

export type BillingStatusLabel = {
  text: string;
  variant: 'default' | 'secondary' | 'destructive' | 'outline';
  className?: string;
};

/** The status badge of /billing. */
export function billingStatusLabel(facts: Pick<Facts, 'subscriptionStatus' | 'cancelAtPeriodEnd'>): BillingStatusLabel {
  switch (facts.subscriptionStatus) {
    case 'active':
      return facts.cancelAtPeriodEnd
        ? { text: 'Cancels at period end', variant: 'outline', className: 'border-amber-500/60' }
        : { text: 'Active', variant: 'default', className: 'bg-green-600 text-white' };
    case 'trial':
      return { text: 'Free Trial', variant: 'secondary' };
    case 'trial_expired':
      return { text: 'Trial Expired', variant: 'destructive' };
    case 'inactive':
      return { text: 'Inactive', variant: 'destructive' };
    case 'expired':
      return { text: 'Expired', variant: 'destructive' };
    default:
      return { text: 'No Plan Selected', variant: 'outline' };
  }
}

/** The dates worth knowing in this state: renewal or end, trial end, and the license holders' grace end. */
export function billingDates(facts: Facts): { label: string; iso: string }[] {
  const dates: { label: string; iso: string }[] = [];
  if (facts.subscriptionStatus === 'active' && facts.currentPeriodEnd) {
    dates.push({ label: facts.cancelAtPeriodEnd ? 'Ends on' : 'Renews on', iso: facts.currentPeriodEnd });
  }
  if (facts.subscriptionStatus === 'trial' && facts.trialEndsAt) {
    dates.push({ label: 'Trial ends on', iso: facts.trialEndsAt });
  }
  if (facts.subscriptionStatus === 'trial_expired' && facts.trialEndsAt) {
    dates.push({ label: 'Trial ended on', iso: facts.trialEndsAt });
  }
  if (facts.licenseHolderAccessUntil && facts.subscriptionStatus !== 'active') {
    dates.push({ label: 'License holders keep access until', iso: facts.licenseHolderAccessUntil });
  }
  return dates;
}

/**
 * What /billing?cancelled=true may announce, read from the subscription and never from the address: a plan that
 * ends at the period end, a plan already ended, or nothing when the plan still renews (or there is none).
 */
export function cancellationState(
  facts: Pick<Facts, 'subscriptionStatus' | 'cancelAtPeriodEnd'> & Pick<BillingOverview, 'status'>,
): 'ends-at-period-end' | 'ended' | undefined {
  if (facts.subscriptionStatus === 'active') return facts.cancelAtPeriodEnd ? 'ends-at-period-end' : undefined;
  if (facts.subscriptionStatus === 'expired' || facts.status === 'expired') return 'ended';
  return undefined;
}

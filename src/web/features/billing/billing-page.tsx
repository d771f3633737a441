import {
  AlertTriangle,
  CalendarClock,
  CheckCircle2,
  Clock,
  CreditCard,
  ExternalLink,
  FlaskConical,
  Info,
  Loader2,
  ShieldCheck,
  XCircle,
} from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link } from 'wouter';
import { PageHeading } from '../../components/page-heading';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import { isAdmin, useCurrentUser } from '../../lib/current-user';
import { hasNothingLoaded } from '../../lib/query-state';
import { formatMonthlyPrice } from '../../lib/subscriptions/plans';
import { formatBillingDate } from './billing-format';
import { type BillingOverview, useBillingOverview, useCustomerPortal, useStartCheckout } from './billing-hooks';
import { billingDates, billingStatusLabel, cancellationState } from './billing-rules';
import { CancelSubscriptionDialog } from './cancel-subscription-dialog';
import type { CheckoutPhase } from './checkout-return';
import { useCheckoutReturn } from './use-checkout-return';

/** /billing (issue 4): the subscription, Manage Billing, and the return from checkout or cancellation. */
export function BillingPage() {
  const { data: user } = useCurrentUser();
  const phase = useCheckoutReturn();
  const overview = useBillingOverview();

  return (
    <div className="container mx-auto max-w-3xl space-y-6 px-4 py-10">
      <PageHeading title="Billing" className="space-y-1" as="header">
        Your Packgate plan, its renewal, and your payment details.
      </PageHeading>

      <CheckoutNotice phase={phase} overview={overview.data} />

      {isAdmin(user) ? (
        <Card data-testid="billing-card">
          <CardHeader className="flex-row items-center gap-4 space-y-0">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
              <ShieldCheck className="size-5" />
            </span>
            <div className="space-y-1">
              <CardTitle className="text-lg">Administrator Access</CardTitle>
              <CardDescription>Administrators have full access and need no subscription.</CardDescription>
            </div>
          </CardHeader>
        </Card>
      ) : overview.isLoading ? (
        <Card>
          <CardContent className="flex items-center gap-2 p-6 text-sm text-muted-foreground">
            <Loader2 className="size-4 animate-spin" /> Loading subscription...
          </CardContent>
        </Card>
      ) : hasNothingLoaded(overview) || !overview.data ? (
        <Card data-testid="billing-card" role="alert">
          <CardHeader className="flex-row items-center gap-3 space-y-0">
            <AlertTriangle className="size-5 text-destructive" />
            <CardTitle className="text-lg">Unable to load subscription details</CardTitle>
          </CardHeader>
          <CardContent className="text-sm text-muted-foreground">Please refresh the page in a moment.</CardContent>
        </Card>
      ) : (
        <SubscriptionDetails overview={overview.data} />
      )}
    </div>
  );
}

function CheckoutNotice({ phase, overview }: { phase: CheckoutPhase; overview: BillingOverview | undefined }) {
  if (phase === 'idle') return null;
  // The address only says that a cancellation was asked for; the subscription says whether there is one.
  const cancellation = overview ? cancellationState(overview) : undefined;
  if (phase === 'cancelled' && !cancellation) return null;
  const periodEnd = overview?.currentPeriodEnd ? formatBillingDate(overview.currentPeriodEnd) : undefined;
  const content: Record<
    Exclude<CheckoutPhase, 'idle'>,
    { icon: ReactNode; tone: string; title: string; text: string }
  > = {
    checking: {
      icon: <Loader2 className="animate-spin" />,
      tone: 'border-border bg-muted/40',
      title: 'Confirming your subscription...',
      text: 'This takes a moment.',
    },
    activated: {
      icon: <CheckCircle2 className="text-green-600" />,
      tone: 'border-green-600/40 bg-green-600/10',
      title: 'Subscription Activated',
      text: overview?.plan ? `Your ${overview.plan.name} plan is active.` : 'Your plan is active.',
    },
    processing: {
      icon: <Loader2 className="animate-spin text-amber-600" />,
      tone: 'border-amber-500/40 bg-amber-500/10',
      title: 'Processing your payment',
      text: 'Your payment is being processed. Your subscription will be active in a moment.',
    },
    unconfirmed: {
      icon: <Clock className="text-amber-600" />,
      tone: 'border-amber-500/40 bg-amber-500/10',
      title: 'Payment not confirmed yet',
      text: 'The payment provider has not confirmed your payment yet; this usually takes under a minute. Refresh this page in a moment, or open Manage Billing to check the payment.',
    },
    cancelled: {
      icon: <XCircle className="text-muted-foreground" />,
      tone: 'border-border bg-muted/40',
      title: 'Subscription Cancelled',
      text:
        cancellation === 'ended'
          ? 'Your plan has ended and will not renew.'
          : periodEnd
            ? `Your plan stays active until ${periodEnd} and will not renew.`
            : 'Your plan stays active until the end of the period you have paid for and will not renew.',
    },
  };
  const { icon, tone, title, text } = content[phase];
  return (
    <div
      className={cn('flex items-start gap-3 rounded-lg border p-4 [&_svg]:size-5', tone)}
      data-testid="checkout-notice"
      data-phase={phase}
      role="status"
    >
      <span className="mt-0.5 shrink-0">{icon}</span>
      <div className="space-y-0.5">
        <p className="font-semibold">{title}</p>
        <p className="text-sm text-muted-foreground">{text}</p>
      </div>
    </div>
  );
}

function SubscriptionDetails({ overview }: { overview: BillingOverview }) {
  const [isCancelOpen, setIsCancelOpen] = useState(false);
  const portal = useCustomerPortal();
  // Choosing the plan again ends a pending cancellation (the server keeps the same subscription).
  const reactivate = useStartCheckout(() => undefined);
  const label = billingStatusLabel(overview);
  const dates = billingDates(overview);
  const isActive = overview.subscriptionStatus === 'active';
  const periodEnd = overview.currentPeriodEnd ? formatBillingDate(overview.currentPeriodEnd) : undefined;

  return (
    <>
      <Card data-testid="billing-card">
        <CardHeader className="flex-row flex-wrap items-start gap-4 space-y-0">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
            <CreditCard className="size-5" />
          </span>
          <div className="min-w-0 flex-1 space-y-1">
            <div className="flex flex-wrap items-center gap-2">
              <CardTitle className="text-xl" data-testid="billing-plan">
                {overview.plan ? `${overview.plan.name} Plan` : 'No plan'}
              </CardTitle>
              <Badge data-testid="billing-status" className={label.className} variant={label.variant}>
                {label.text}
              </Badge>
              {overview.billingEnabled && overview.sandboxMode && (
                <Badge variant="outline" className="gap-1">
                  <FlaskConical className="size-3" /> Test Mode
                </Badge>
              )}
            </div>
            {overview.plan && (
              <CardDescription>
                {formatMonthlyPrice(overview.plan.priceCents, overview.plan.currency)}/month
              </CardDescription>
            )}
          </div>
        </CardHeader>
        <CardContent className="space-y-5">
          {dates.length > 0 && (
            <dl className="grid gap-3 sm:grid-cols-2">
              {dates.map((date) => (
                <div key={date.label} className="rounded-md border p-3">
                  <dt className="flex items-center gap-1.5 text-xs text-muted-foreground">
                    <CalendarClock className="size-3.5" aria-hidden="true" />
                    {date.label}
                  </dt>
                  <dd className="mt-1 font-medium" data-testid="billing-date">
                    {formatBillingDate(date.iso)}
                  </dd>
                </div>
              ))}
            </dl>
          )}
          {overview.message && <p className="text-sm text-muted-foreground">{overview.message}</p>}

          <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
            {overview.billingEnabled && overview.canManageBilling && (
              <Button onClick={() => portal.mutate()} disabled={portal.isPending}>
                {portal.isPending ? <Loader2 className="animate-spin" /> : <ExternalLink />}
                Manage Billing
              </Button>
            )}
            <Button asChild variant={isActive ? 'outline' : 'default'}>
              <Link href={isActive ? '/subscribe?intent=change' : '/subscribe'}>
                {isActive ? 'Change Plan' : 'Subscribe Now'}
              </Link>
            </Button>
            {isActive && overview.cancelAtPeriodEnd && overview.plan && (
              <Button
                variant="outline"
                onClick={() => overview.plan && reactivate.startCheckout(overview.plan.id)}
                disabled={Boolean(reactivate.pendingTier)}
              >
                {reactivate.pendingTier && <Loader2 className="animate-spin" />}
                Reactivate Subscription
              </Button>
            )}
            {isActive && !overview.cancelAtPeriodEnd && (
              <Button variant="ghost" onClick={() => setIsCancelOpen(true)}>
                Cancel Subscription
              </Button>
            )}
          </div>

          {!overview.billingEnabled && (
            <p
              className="flex items-start gap-2 rounded-md border bg-muted/40 p-3 text-sm"
              data-testid="billing-off-notice"
            >
              <Info className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
              <span>
                Billing is off on this installation: plans are activated without a charge, so there is no payment
                method, invoice or billing portal to manage.
              </span>
            </p>
          )}
        </CardContent>
      </Card>

      <CancelSubscriptionDialog
        open={isCancelOpen}
        onOpenChange={setIsCancelOpen}
        planName={overview.plan?.name}
        periodEnd={periodEnd}
      />
    </>
  );
}

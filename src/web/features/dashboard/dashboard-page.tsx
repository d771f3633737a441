import { BookOpen, Loader2, Package, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { ManageBillingButton } from '../../components/manage-billing-button';
import { PageHeading } from '../../components/page-heading';
import { PlanChooser } from '../../components/plan-chooser';
import { Button } from '../../components/ui/button';
import { displayUsername, isAdmin, useCurrentUser } from '../../lib/current-user';
import { usePublicConfig } from '../../lib/public-config';
import { usePlans } from '../../lib/subscriptions/plans';
import { useSubscriptionStatus } from '../../lib/subscriptions/subscription-status';
import { CodeHostCard } from './github-card';
import { useStartTrial } from './start-trial';
import { SubscriptionCard } from './subscription-card';

export type DashboardPageProps = {
  /** The Brand Settings form (with its DNS help dialog); the branding feature supplies it through the shell. */
  brandSettings: ReactNode;
  /** The payout account and sales figures; the sales feature supplies them through the shell. */
  sales: ReactNode;
};

/**
 * /dashboard (spec seller-app §2): a new seller first picks a plan; everyone else sees billing, the code host,
 * the subscription and the Brand Settings.
 */
export function DashboardPage({ brandSettings, sales }: DashboardPageProps) {
  const { data: user } = useCurrentUser();
  const { data: config } = usePublicConfig();
  const status = useSubscriptionStatus();
  if (!user) return null;

  // A new seller's first view is the plan chooser: wait for the status rather than flash the dashboard.
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

  const name = user.displayName || displayUsername(user);
  return (
    <div className="container mx-auto space-y-6 px-4 py-8 sm:py-10">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <PageHeading title="Dashboard" className="space-y-1">
          Welcome, {name}.{' '}
          {isAdmin(user) ? 'You are signed in as an administrator.' : 'Your account, code host and brand.'}
        </PageHeading>
        <div className="flex flex-col gap-2 sm:flex-row">
          {isAdmin(user) && (
            <Button asChild variant="outline">
              <Link href="/admin">
                <ShieldCheck />
                Admin Dashboard
              </Link>
            </Button>
          )}
          <ManageBillingButton />
        </div>
      </header>

      <div className="grid gap-6 md:grid-cols-2">
        <SubscriptionCard user={user} status={status.data} isLoading={status.isLoading} />
        <CodeHostCard user={user} hasGithub={Boolean(config?.githubSignIn)} />
      </div>

      {sales}

      <nav aria-label="Next steps" className="grid gap-3 sm:grid-cols-2">
        <QuickLink href="/management" icon={<Package />} title="Manage packages">
          Add repositories, issue licenses and watch downloads.
        </QuickLink>
        <QuickLink href="/documentation" icon={<BookOpen />} title="Read the documentation">
          Composer setup, branding, custom domains and the API.
        </QuickLink>
      </nav>

      {brandSettings}
    </div>
  );
}

function QuickLink({
  href,
  icon,
  title,
  children,
}: {
  href: string;
  icon: ReactNode;
  title: string;
  children: ReactNode;
}) {
  return (
    <Link
      href={href}
      className="flex items-center gap-3 rounded-lg border bg-card p-4 transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary [&_svg]:size-4">
        {icon}
      </span>
      <span className="min-w-0">
        <span className="block font-medium">{title}</span>
        <span className="block text-sm text-muted-foreground">{children}</span>
      </span>
    </Link>
  );
}

function FirstTimePlanChooser({ selectedTier }: { selectedTier: string | null }) {
  const { startTrial, pendingTier } = useStartTrial();
  const { data: tiers } = usePlans();
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

import {
  Building,
  Crown,
  Diamond,
  DollarSign,
  Gem,
  Globe,
  Heart,
  Loader2,
  type LucideIcon,
  Package,
  Rocket,
  Shield,
  Star,
  Target,
  Users,
  Zap,
} from 'lucide-react';
import { Link } from 'wouter';
import { cn } from '../lib/cn';
import { hasNothingLoaded } from '../lib/query-state';
import { trialButtonLabel } from '../lib/subscriptions/call-to-action';
import { limitText, type Plan, sortPlans, trialDaysOf, usePlans } from '../lib/subscriptions/plans';
import { useCallToAction } from '../lib/subscriptions/use-call-to-action';
import { PlanCardHeader, PlanFeatureList } from './plan-card-parts';
import { Badge } from './ui/badge';
import { Button } from './ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from './ui/card';

const planIcons: Record<string, LucideIcon> = {
  package: Package,
  users: Users,
  'dollar-sign': DollarSign,
  star: Star,
  crown: Crown,
  zap: Zap,
  shield: Shield,
  globe: Globe,
  rocket: Rocket,
  building: Building,
  heart: Heart,
  diamond: Diamond,
  target: Target,
  gem: Gem,
};

/** The tier's icon by name; unknown names fall back to the package icon. */
export const tierIcon = (name: string): LucideIcon => planIcons[name] ?? Package;

export type PlanChooserMode = 'trial' | 'subscribe';

export type PlanChooserProps = {
  /** The label of onSelect buttons: trial → 'Start N-Day Free Trial'; subscribe → 'Subscribe Now'. */
  mode: PlanChooserMode;
  /**
   * Called with the tier id when a plan's button is pressed. Without it each card's button is a link that
   * follows the call-to-action table by state (signed out → sign in with the tier, and so on), as on the
   * landing page.
   */
  onSelect?: (tierId: string) => void;
  /** The tier being started: its button spins and every button is disabled. */
  pendingTierId?: string | null;
  /** A tier to draw attention to (the one chosen before signing in). */
  selectedTierId?: string | null;
  className?: string;
};

/** What every plan holds, whatever an admin writes on the cards: the plans differ in limits and support only. */
export const EVERY_PLAN_INCLUDES =
  'Every plan, and the free trial, includes the whole product: the REST API v1 with fine-grained token permissions, white-label branding with a custom domain, and download analytics. Plans differ in how many packages and customers they hold, and in support.';

/** Plan cards from GET /api/pricing-tiers, sorted by sortOrder, four columns on large screens. */
export function PlanChooser({ mode, onSelect, pendingTierId, selectedTierId, className }: PlanChooserProps) {
  const plans = usePlans();
  const { data, isLoading } = plans;

  if (isLoading) {
    return (
      <div className={cn('grid gap-6 md:grid-cols-2 lg:grid-cols-4', className)} aria-busy="true">
        {[0, 1, 2, 3].map((index) => (
          <Card key={index} className="h-96 animate-pulse bg-muted/40" />
        ))}
      </div>
    );
  }

  const tiers = sortPlans(data?.tiers);
  if (hasNothingLoaded(plans) || tiers.length === 0) {
    return (
      <Card className={cn('mx-auto max-w-md text-center', className)}>
        <CardHeader>
          <CardTitle className="text-lg">Unable to load subscription plans</CardTitle>
        </CardHeader>
        <CardFooter className="justify-center">
          <Button variant="outline" onClick={() => window.location.reload()}>
            Retry
          </Button>
        </CardFooter>
      </Card>
    );
  }

  const trialDays = trialDaysOf(data);
  // A tier chosen before signing in takes the highlight from the most popular one.
  const highlightedId = tiers.find((tier) => tier.id === selectedTierId)?.id ?? tiers.find((t) => t.isMostPopular)?.id;
  return (
    <div className={className}>
      <div className="grid gap-6 md:grid-cols-2 lg:grid-cols-4">
        {tiers.map((tier) => (
          <PlanCard
            key={tier.id}
            tier={tier}
            mode={mode}
            trialDays={trialDays}
            onSelect={onSelect}
            pendingTierId={pendingTierId}
            isHighlighted={highlightedId === tier.id}
          />
        ))}
      </div>
      <p data-testid="every-plan-includes" className="mx-auto mt-8 max-w-3xl text-center text-sm text-muted-foreground">
        {EVERY_PLAN_INCLUDES}
      </p>
    </div>
  );
}

function PlanCard({
  tier,
  mode,
  trialDays,
  onSelect,
  pendingTierId,
  isHighlighted: highlighted,
}: {
  tier: Plan;
  mode: PlanChooserMode;
  trialDays: number;
  onSelect?: (tierId: string) => void;
  pendingTierId?: string | null;
  isHighlighted: boolean;
}) {
  const Icon = tierIcon(tier.icon);
  return (
    <Card
      data-testid="plan-card"
      data-tier-id={tier.id}
      className={cn('relative flex flex-col', highlighted && 'border-primary ring-2 ring-primary/60')}
    >
      <PlanCardHeader tier={tier} icon={Icon} />
      <CardContent className="flex-1 space-y-4">
        <ul className="space-y-1 text-sm font-medium">
          <li>{limitText(tier.maxCustomers, 'customer', 'customers')}</li>
          <li>{limitText(tier.maxPackages, 'package', 'packages')}</li>
        </ul>
        <PlanFeatureList features={tier.features} />
      </CardContent>
      <CardFooter>
        {onSelect ? (
          <Button
            className="w-full"
            variant={highlighted ? 'default' : 'outline'}
            disabled={Boolean(pendingTierId)}
            onClick={() => onSelect(tier.id)}
          >
            {pendingTierId === tier.id && <Loader2 className="animate-spin" />}
            {mode === 'subscribe' ? 'Subscribe Now' : trialButtonLabel(trialDays)}
          </Button>
        ) : (
          <PlanCallToAction tierId={tier.id} highlighted={highlighted} />
        )}
      </CardFooter>
      {/* After the content in reading order (the name comes first), drawn on the card's top edge. */}
      {(tier.isMostPopular || tier.isFeatured) && (
        <div className="absolute -top-3 left-1/2 flex -translate-x-1/2 gap-2">
          {tier.isMostPopular && <Badge data-testid="badge-most-popular">Most Popular</Badge>}
          {tier.isFeatured && (
            <Badge variant="secondary" data-testid="badge-featured" className="border-primary/40">
              Featured
            </Badge>
          )}
        </div>
      )}
    </Card>
  );
}

function PlanCallToAction({ tierId, highlighted }: { tierId: string; highlighted: boolean }) {
  const action = useCallToAction(tierId);
  return (
    <Button asChild className="w-full" variant={highlighted ? 'default' : 'outline'}>
      {action.isServerRoute ? <a href={action.href}>{action.label}</a> : <Link href={action.href}>{action.label}</Link>}
    </Button>
  );
}

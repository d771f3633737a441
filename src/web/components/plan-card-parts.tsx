import { Check, type LucideIcon } from 'lucide-react';
import type { Plan } from '../../contract/plans';
import { formatMonthlyPrice } from '../lib/subscriptions/plans';
import { CardDescription, CardHeader, CardTitle } from './ui/card';

/** A plan card's head, shared by the plan chooser and /subscribe: icon, name, description, monthly price. */
export function PlanCardHeader({ tier, icon: Icon }: { tier: Plan; icon: LucideIcon }) {
  return (
    <CardHeader>
      <div className="flex items-center gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
          <Icon className="size-5" aria-hidden="true" />
        </span>
        <CardTitle className="text-xl">{tier.name}</CardTitle>
      </div>
      {tier.description && <CardDescription className="pt-1">{tier.description}</CardDescription>}
      <p className="pt-3">
        <span className="text-4xl font-bold tracking-tight">{formatMonthlyPrice(tier.priceCents, tier.currency)}</span>
        <span className="text-muted-foreground">/month</span>
      </p>
    </CardHeader>
  );
}

/** A plan's feature list with check marks; nothing when the tier lists none. */
export function PlanFeatureList({ features }: { features: string[] }) {
  if (features.length === 0) return null;
  return (
    <ul className="space-y-2 text-sm">
      {features.map((feature) => (
        <li key={feature} className="flex gap-2">
          <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
          <span>{feature}</span>
        </li>
      ))}
    </ul>
  );
}

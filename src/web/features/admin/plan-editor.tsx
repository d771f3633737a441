import type { Plan } from '@contract/plans';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { GripVertical, ShieldCheck, Trash2 } from 'lucide-react';
import type { ChangeEvent } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { planIconLabels, planIcons, UNLIMITED } from '../../../contract/plans';
import { tierIcon } from '../../components/plan-chooser';
import { PriceInput } from '../../components/price-input';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { LabelledCheckbox } from '../../components/ui/checkbox';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { NativeSelect, SelectOptions } from '../../components/ui/native-select';
import { limitText } from '../../lib/subscriptions/plans';
import { usePlanSubscribers } from './admin-plans';
import {
  isProtectedPlan,
  limitInputText,
  parseLimitInput,
  parsePriceInput,
  priceInputProblem,
  priceInputText,
} from './plan-editing';

type TierFieldTexts = { price: string; customers: string; packages: string; members: string };

/** The tier's limits: each a whole-number field (kept as typed) that sets one of the tier's values. */
const limitFields = [
  { name: 'customers', id: 'customers', label: 'Max Customers', key: 'maxCustomers' },
  { name: 'packages', id: 'packages', label: 'Max Packages', key: 'maxPackages' },
  { name: 'members', id: 'team-members', label: 'Team Members', key: 'maxTeamMembers' },
] as const;

/**
 * One tier in the Platform Tier Management dialog: its fields, its subscribers and its drag handle. A field holding
 * what cannot be stored keeps its text and leaves the tier's value as it was (plan-editing.ts).
 */
export function TierEditor({
  tier,
  canRemove,
  onChange,
  onPriceValidityChange,
  onMostPopularChange,
  onRemove,
}: {
  tier: Plan;
  canRemove: boolean;
  onChange: (change: Partial<Plan>) => void;
  onPriceValidityChange: (isValid: boolean) => void;
  onMostPopularChange: (checked: boolean) => void;
  onRemove: () => void;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: tier.id,
  });
  const subscribers = usePlanSubscribers(tier.id);
  // The number fields' texts as typed (react-hook-form, issue 29 item 7); each change that parses updates the tier.
  const form = useForm<TierFieldTexts>({
    defaultValues: {
      price: priceInputText(tier.priceCents),
      customers: limitInputText(tier.maxCustomers),
      packages: limitInputText(tier.maxPackages),
      // A tier saved before issue 33 has no team-member limit: unlimited, as the server reads it.
      members: limitInputText(tier.maxTeamMembers ?? UNLIMITED),
    },
  });
  const priceProblem = priceInputProblem(form.watch('price'));
  const limitField = (
    name: 'customers' | 'packages' | 'members',
    key: 'maxCustomers' | 'maxPackages' | 'maxTeamMembers',
  ) =>
    form.register(name, {
      onChange: (event: ChangeEvent<HTMLInputElement>) => {
        const limit = parseLimitInput(event.target.value);
        if (limit !== undefined) onChange({ [key]: limit });
      },
    });
  const Icon = tierIcon(tier.icon);
  const field = (name: string) => `tier-${tier.id}-${name}`;
  const badges = [tier.isMostPopular && 'Most Popular', tier.isFeatured && 'Featured'].filter(Boolean);

  return (
    <div
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={`space-y-4 rounded-md border bg-background p-4 ${isDragging ? 'relative z-10 shadow-lg' : ''}`}
      data-testid="tier-editor"
    >
      <div className="flex items-center gap-2">
        <button
          ref={setActivatorNodeRef}
          type="button"
          className="cursor-grab rounded-sm p-1 text-muted-foreground hover:text-foreground active:cursor-grabbing"
          aria-label={`Drag to reorder ${tier.name}`}
          {...attributes}
          {...listeners}
        >
          <GripVertical className="size-4" />
        </button>
        <Icon className="size-5 text-primary" />
        <span className="font-medium">{tier.name || 'Untitled tier'}</span>
        <div className="ml-auto flex flex-wrap items-center gap-2">
          {subscribers.data && (
            <Badge variant="secondary" data-testid="tier-subscriber-badge">
              {subscribers.data.subscriberCount} subscriber{subscribers.data.subscriberCount === 1 ? '' : 's'}
              {subscribers.data.trialCount > 0 && `, ${subscribers.data.trialCount} trial`}
            </Badge>
          )}
          {isProtectedPlan(subscribers.data) && (
            <Badge variant="outline" className="gap-1">
              <ShieldCheck className="size-3" /> Protected from deletion
            </Badge>
          )}
          {canRemove && (
            <Button size="icon" variant="ghost" onClick={onRemove} aria-label={`Remove ${tier.name}`}>
              <Trash2 className="text-destructive" />
            </Button>
          )}
        </div>
      </div>

      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid gap-1.5">
          <Label htmlFor={field('name')}>Name</Label>
          <Input id={field('name')} value={tier.name} onChange={(event) => onChange({ name: event.target.value })} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={field('icon')}>Icon</Label>
          <NativeSelect
            id={field('icon')}
            value={tier.icon}
            onChange={(event) => onChange({ icon: event.target.value })}
          >
            <SelectOptions values={planIcons} label={(icon) => planIconLabels[icon]} />
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={field('price')}>Monthly Price ($)</Label>
          <Controller
            control={form.control}
            name="price"
            render={({ field: price }) => (
              <PriceInput
                id={field('price')}
                value={price.value}
                aria-invalid={Boolean(priceProblem)}
                aria-describedby={priceProblem ? field('price-error') : undefined}
                onValueChange={(text) => {
                  price.onChange(text);
                  const cents = parsePriceInput(text);
                  onPriceValidityChange(cents !== undefined);
                  if (cents !== undefined) onChange({ priceCents: cents });
                }}
              />
            )}
          />
          {priceProblem && (
            <p id={field('price-error')} className="text-sm text-destructive">
              {priceProblem}
            </p>
          )}
        </div>
        {limitFields.map(({ name, id, label, key }) => (
          <div key={name} className="grid gap-1.5">
            <Label htmlFor={field(id)}>{label}</Label>
            <Input id={field(id)} type="number" min={1} step={1} placeholder="Unlimited" {...limitField(name, key)} />
          </div>
        ))}
        <div className="flex items-end gap-6 pb-2">
          <LabelledCheckbox
            label="Most Popular"
            checked={tier.isMostPopular}
            onChange={(event) => onMostPopularChange(event.target.checked)}
          />
          <LabelledCheckbox
            label="Featured"
            checked={tier.isFeatured}
            onChange={(event) => onChange({ isFeatured: event.target.checked })}
          />
        </div>
      </div>

      <p className="text-xs text-muted-foreground" data-testid="tier-summary">
        {limitText(tier.maxCustomers, 'customer', 'customers')} · {limitText(tier.maxPackages, 'package', 'packages')} ·{' '}
        {limitText(tier.maxTeamMembers ?? UNLIMITED, 'team member', 'team members')}
        {badges.length > 0 && ` · ${badges.join(', ')}`}
      </p>
    </div>
  );
}

import type { Plan, PlanSubscribers } from '@contract/plans';
import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { GripVertical, Loader2, Plus, ShieldCheck, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { planIconLabels, planIcons, UNLIMITED } from '../../../contract/plans';
import { tierIcon } from '../../components/plan-chooser';
import { PriceInput } from '../../components/price-input';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { NativeSelect } from '../../components/ui/native-select';
import { toast } from '../../components/ui/use-toast';
import { errorMessage } from '../../lib/api-error';
import { TRIAL_DAYS_PLACEHOLDER } from '../../lib/constants';
import { hasNothingLoaded } from '../../lib/query-state';
import { limitText } from '../../lib/subscriptions/plans';
import {
  planConfigurationQuery,
  planSubscribersQuery,
  usePlanSubscribers,
  useSavePlanConfiguration,
} from './admin-plans';
import {
  isProtectedPlan,
  limitInputText,
  moveTier,
  newTier,
  parseLimitInput,
  parsePriceInput,
  parseTrialDaysInput,
  planRemoval,
  priceInputProblem,
  priceInputText,
  setMostPopular,
  withSortOrder,
} from './plan-editing';
import { tierKeyboardCoordinates } from './tier-keyboard-coordinates';

/** The Platform Tier Management dialog (spec admin §2, §4, §5): edits stay local until Save Configuration. */
export function PlanManagementDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>Platform Tier Management</DialogTitle>
          <DialogDescription>
            Configure the free trial and the subscription tiers sellers can choose. Drag tiers to reorder them.
          </DialogDescription>
        </DialogHeader>
        {open && <TierConfigurationLoader onClose={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function TierConfigurationLoader({ onClose }: { onClose: () => void }) {
  // Read afresh on every opening, and never again while the admin edits.
  const configuration = useQuery({
    ...planConfigurationQuery(),
    refetchOnMount: 'always',
    refetchOnWindowFocus: false,
  });
  if (hasNothingLoaded(configuration))
    return (
      <p className="text-sm text-destructive">
        {errorMessage(configuration.error, 'Failed to load tier configuration')}
      </p>
    );
  if (!configuration.isFetchedAfterMount || !configuration.data)
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <Loader2 className="size-4 animate-spin" /> Loading tiers...
      </p>
    );
  return (
    <TierConfigurationForm
      initialTiers={configuration.data.tiers}
      initialTrialDays={configuration.data.trialDays}
      onClose={onClose}
    />
  );
}

function TierConfigurationForm({
  initialTiers,
  initialTrialDays,
  onClose,
}: {
  initialTiers: Plan[];
  initialTrialDays: number;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const save = useSavePlanConfiguration();
  const [tiers, setTiers] = useState(() => withSortOrder([...initialTiers].sort((a, b) => a.sortOrder - b.sortOrder)));
  const [trialDays, setTrialDays] = useState(initialTrialDays);
  const [trialDaysText, setTrialDaysText] = useState(String(initialTrialDays));
  // Tiers whose price field holds what cannot be saved ("12.345", "-5", "abc"): Save waits until they are fixed.
  const [badPrices, setBadPrices] = useState<ReadonlySet<string>>(new Set());
  const markPrice = (tierId: string, isBad: boolean) =>
    setBadPrices((current) => {
      if (current.has(tierId) === isBad) return current;
      const next = new Set(current);
      if (isBad) next.add(tierId);
      else next.delete(tierId);
      return next;
    });
  const hasBadPrice = tiers.some((tier) => badPrices.has(tier.id));
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: tierKeyboardCoordinates }),
  );

  const updateTier = (tierId: string, change: Partial<Plan>) =>
    setTiers((current) => current.map((tier) => (tier.id === tierId ? { ...tier, ...change } : tier)));

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) setTiers((current) => moveTier(current, String(active.id), String(over.id)));
  };

  const removeTier = async (tier: Plan) => {
    if (tiers.length <= 1) {
      const decision = planRemoval(tiers.length);
      if (decision.kind === 'last-tier')
        toast({ variant: 'destructive', title: decision.title, description: decision.description });
      return;
    }
    let subscribers: PlanSubscribers;
    try {
      subscribers = await queryClient.fetchQuery({ ...planSubscribersQuery(tier.id), staleTime: 0 });
    } catch {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: 'Failed to check tier subscribers. Please try again.',
      });
      return;
    }
    const decision = planRemoval(tiers.length, subscribers);
    if (decision.kind === 'last-tier') {
      toast({ variant: 'destructive', title: decision.title, description: decision.description });
      return;
    }
    if (decision.kind === 'protected') {
      toast({ variant: 'destructive', title: 'Cannot Remove Tier', description: decision.message });
      return;
    }
    if (decision.kind === 'confirm' && !window.confirm(decision.question)) return;
    setTiers((current) => withSortOrder(current.filter((candidate) => candidate.id !== tier.id)));
    toast({
      title: 'Tier Removed',
      description: `${tier.name} was removed. Remember to save the configuration to apply the change.`,
    });
  };

  return (
    <>
      <div className="space-y-6">
        <section className="space-y-2 rounded-md border p-4">
          <h3 className="font-semibold">Free Trial Period</h3>
          <div className="grid max-w-xs gap-2">
            <Label htmlFor="trial-days">Trial Days</Label>
            <Input
              id="trial-days"
              type="number"
              min={0}
              max={90}
              step={1}
              placeholder={String(TRIAL_DAYS_PLACEHOLDER)}
              value={trialDaysText}
              onChange={(event) => {
                setTrialDaysText(event.target.value);
                const days = parseTrialDaysInput(event.target.value);
                if (days !== undefined) setTrialDays(days);
              }}
            />
            <p className="text-xs text-muted-foreground">
              New sellers get {trialDays} day{trialDays === 1 ? '' : 's'} free (0 to 90).
            </p>
          </div>
        </section>

        <section className="space-y-3">
          <div className="flex items-center justify-between">
            <h3 className="font-semibold">Tiers</h3>
            <Button size="sm" variant="outline" onClick={() => setTiers((current) => [...current, newTier(current)])}>
              <Plus /> Add Tier
            </Button>
          </div>
          <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
            <SortableContext items={tiers.map((tier) => tier.id)} strategy={verticalListSortingStrategy}>
              <div className="space-y-3">
                {tiers.map((tier) => (
                  <TierEditor
                    key={tier.id}
                    tier={tier}
                    canRemove={tiers.length > 1}
                    onChange={(change) => updateTier(tier.id, change)}
                    onPriceValidityChange={(isValid) => markPrice(tier.id, !isValid)}
                    onMostPopularChange={(checked) => setTiers((current) => setMostPopular(current, tier.id, checked))}
                    onRemove={() => void removeTier(tier)}
                  />
                ))}
              </div>
            </SortableContext>
          </DndContext>
        </section>
      </div>
      <DialogFooter className="items-center">
        {hasBadPrice && (
          <p className="text-sm text-destructive sm:mr-auto" data-testid="tier-save-blocked">
            Correct the marked price to save.
          </p>
        )}
        <Button variant="outline" onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button
          onClick={() => save.mutate({ tiers, trialDays }, { onSuccess: onClose })}
          disabled={save.isPending || hasBadPrice}
        >
          {save.isPending && <Loader2 className="animate-spin" />}
          Save Configuration
        </Button>
      </DialogFooter>
    </>
  );
}

function TierEditor({
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
  const [priceText, setPriceText] = useState(() => priceInputText(tier.priceCents));
  const priceProblem = priceInputProblem(priceText);
  const [customersText, setCustomersText] = useState(() => limitInputText(tier.maxCustomers));
  const [packagesText, setPackagesText] = useState(() => limitInputText(tier.maxPackages));
  // A tier saved before issue 33 has no team-member limit: unlimited, as the server reads it.
  const [membersText, setMembersText] = useState(() => limitInputText(tier.maxTeamMembers ?? UNLIMITED));
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
            {planIcons.map((icon) => (
              <option key={icon} value={icon}>
                {planIconLabels[icon]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={field('price')}>Monthly Price ($)</Label>
          <PriceInput
            id={field('price')}
            value={priceText}
            aria-invalid={Boolean(priceProblem)}
            aria-describedby={priceProblem ? field('price-error') : undefined}
            onValueChange={(text) => {
              setPriceText(text);
              const cents = parsePriceInput(text);
              onPriceValidityChange(cents !== undefined);
              if (cents !== undefined) onChange({ priceCents: cents });
            }}
          />
          {priceProblem && (
            <p id={field('price-error')} className="text-sm text-destructive">
              {priceProblem}
            </p>
          )}
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={field('customers')}>Max Customers</Label>
          <Input
            id={field('customers')}
            type="number"
            min={1}
            step={1}
            placeholder="Unlimited"
            value={customersText}
            onChange={(event) => {
              setCustomersText(event.target.value);
              const limit = parseLimitInput(event.target.value);
              if (limit !== undefined) onChange({ maxCustomers: limit });
            }}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={field('packages')}>Max Packages</Label>
          <Input
            id={field('packages')}
            type="number"
            min={1}
            step={1}
            placeholder="Unlimited"
            value={packagesText}
            onChange={(event) => {
              setPackagesText(event.target.value);
              const limit = parseLimitInput(event.target.value);
              if (limit !== undefined) onChange({ maxPackages: limit });
            }}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={field('team-members')}>Team Members</Label>
          <Input
            id={field('team-members')}
            type="number"
            min={1}
            step={1}
            placeholder="Unlimited"
            value={membersText}
            onChange={(event) => {
              setMembersText(event.target.value);
              const limit = parseLimitInput(event.target.value);
              if (limit !== undefined) onChange({ maxTeamMembers: limit });
            }}
          />
        </div>
        <div className="flex items-end gap-6 pb-2">
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4 accent-primary"
              checked={tier.isMostPopular}
              onChange={(event) => onMostPopularChange(event.target.checked)}
            />
            Most Popular
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4 accent-primary"
              checked={tier.isFeatured}
              onChange={(event) => onChange({ isFeatured: event.target.checked })}
            />
            Featured
          </label>
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

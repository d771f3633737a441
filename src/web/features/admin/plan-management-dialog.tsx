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
import { SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2, Plus } from 'lucide-react';
import { type ChangeEvent, useState } from 'react';
import { useForm } from 'react-hook-form';
import { TitledDialog } from '../../components/form-dialog';
import { LoadingLine } from '../../components/loading-line';
import { Button } from '../../components/ui/button';
import { DialogFooter } from '../../components/ui/dialog';
import { Label } from '../../components/ui/label';
import { toast } from '../../components/ui/use-toast';
import { WholeNumberInput } from '../../components/whole-number-input';
import { errorMessage } from '../../lib/api-error';
import { TRIAL_DAYS_PLACEHOLDER } from '../../lib/constants';
import { hasNothingLoaded } from '../../lib/query-state';
import { planConfigurationQuery, planSubscribersQuery, useSavePlanConfiguration } from './admin-plans';
import { moveTier, newTier, parseTrialDaysInput, planRemoval, setMostPopular, withSortOrder } from './plan-editing';
import { TierEditor } from './plan-editor';
import { tierKeyboardCoordinates } from './tier-keyboard-coordinates';

/** The Platform Tier Management dialog (spec admin §2, §4, §5): edits stay local until Save Configuration. */
export function PlanManagementDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <TitledDialog
      open={open}
      onClose={() => onOpenChange(false)}
      title="Platform Tier Management"
      description="Configure the free trial and the subscription tiers sellers can choose. Drag tiers to reorder them."
    >
      {open && <TierConfigurationLoader onClose={() => onOpenChange(false)} />}
    </TitledDialog>
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
    return <LoadingLine className="text-sm">Loading tiers...</LoadingLine>;
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
  // Trial days as typed, and the days saved: out-of-range input is ignored (spec admin §4), so the saved value is the
  // last whole number from 0 to 90 the field held.
  const trialForm = useForm<{ trialDaysText: string; trialDays: number }>({
    defaultValues: { trialDaysText: String(initialTrialDays), trialDays: initialTrialDays },
  });
  const trialDays = trialForm.watch('trialDays');
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
            <WholeNumberInput
              id="trial-days"
              min={0}
              max={90}
              placeholder={String(TRIAL_DAYS_PLACEHOLDER)}
              {...trialForm.register('trialDaysText', {
                onChange: (event: ChangeEvent<HTMLInputElement>) => {
                  const days = parseTrialDaysInput(event.target.value);
                  if (days !== undefined) trialForm.setValue('trialDays', days);
                },
              })}
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

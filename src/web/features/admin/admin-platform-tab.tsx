import { Layers, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { SectionCard } from '../../components/ui/card';
import { usePlanConfiguration } from './admin-plans';
import { PlanManagementDialog } from './plan-management-dialog';

/** The Platform tab (spec admin §2): Manage Tiers opens the Platform Tier Management dialog. */
export function PlatformTab() {
  const [isDialogOpen, setDialogOpen] = useState(false);
  const configuration = usePlanConfiguration();
  return (
    <section className="space-y-6">
      <SectionCard
        icon={Layers}
        title="Pricing Tiers"
        description="The subscription tiers sellers choose from and the length of the free trial."
        contentClassName="flex flex-wrap items-center justify-between gap-4"
      >
        <p className="text-sm text-muted-foreground">
          {configuration.isLoading ? (
            <Loader2 className="size-4 animate-spin" />
          ) : configuration.data ? (
            `${configuration.data.tiers.length} tier${configuration.data.tiers.length === 1 ? '' : 's'}, ${configuration.data.trialDays}-day free trial`
          ) : null}
        </p>
        <Button onClick={() => setDialogOpen(true)}>Manage Tiers</Button>
      </SectionCard>
      <PlanManagementDialog open={isDialogOpen} onOpenChange={setDialogOpen} />
    </section>
  );
}

import { AlertTriangle, CreditCard, Loader2, Settings } from 'lucide-react';
import { LoadError } from '../../components/load-error';
import { Badge } from '../../components/ui/badge';
import { SectionCard } from '../../components/ui/card';
import { Label } from '../../components/ui/label';
import { Switch } from '../../components/ui/switch';
import { hasNothingLoaded } from '../../lib/query-state';
import {
  isSandboxModeSetting,
  paymentModeSummary,
  requiredEnvironmentVariables,
  usePlatformSettings,
  useStripeConfig,
  useUpdateSandboxMode,
} from './admin-settings';
import { SecondFactorPolicyCard } from './second-factor-policy-card';

/** Stripe's public test cards, shown in test mode. */
const testCards = [
  { number: '4242 4242 4242 4242', outcome: 'Success' },
  { number: '4000 0000 0000 0002', outcome: 'Declined' },
  { number: '4000 0000 0000 9995', outcome: 'Insufficient funds' },
  { number: '4000 0000 0000 0069', outcome: 'Expired card' },
];

/** The Settings tab (spec admin §2): the payment mode card. */
export function SettingsTab() {
  const settings = usePlatformSettings();
  const stripeConfig = useStripeConfig();
  const update = useUpdateSandboxMode();
  const stored = isSandboxModeSetting(settings.data, stripeConfig.data?.sandboxMode);
  // While the PUT runs, show the mode being saved.
  const isSandbox = update.isPending && update.variables !== undefined ? update.variables : stored;
  const summary = paymentModeSummary(isSandbox, stripeConfig.data);
  return (
    <section className="space-y-6">
      <SectionCard
        icon={Settings}
        title="Payment Configuration"
        description="Choose whether Stripe runs in test mode or processes real payments."
        contentClassName="space-y-6"
      >
        {hasNothingLoaded(settings) ? (
          <LoadError error={settings.error} fallback="Failed to load settings" />
        ) : (
          <div className="flex items-center justify-between gap-4 rounded-md border p-4">
            <div className="space-y-1">
              <Label htmlFor="sandbox-mode" className="flex flex-wrap items-center gap-2 text-base">
                Sandbox Mode
                <Badge
                  variant={isSandbox ? 'secondary' : 'destructive'}
                  className="whitespace-nowrap"
                  data-testid="payment-mode-badge"
                >
                  {summary.badge}
                </Badge>
                {summary.isOff && (
                  <Badge
                    variant="outline"
                    className="whitespace-nowrap border-amber-500/60 text-amber-700 dark:text-amber-400"
                    data-testid="payments-off-badge"
                  >
                    Payments Off
                  </Badge>
                )}
              </Label>
              <p className="text-sm text-muted-foreground" data-testid="payment-mode-text">
                {summary.text}
              </p>
            </div>
            <div className="flex items-center gap-2">
              {(update.isPending || settings.isLoading) && (
                <Loader2 className="size-4 animate-spin text-muted-foreground" />
              )}
              <Switch
                id="sandbox-mode"
                aria-label="Sandbox Mode"
                checked={isSandbox}
                disabled={settings.isLoading || update.isPending}
                onCheckedChange={(next) => update.mutate(next)}
              />
            </div>
          </div>
        )}

        <div className="space-y-2">
          <h3 className="text-sm font-semibold">Required environment variables ({isSandbox ? 'test' : 'live'} mode)</h3>
          <ul className="space-y-1" data-testid="required-environment-variables">
            {requiredEnvironmentVariables(isSandbox).map((name) => (
              <li key={name} className="flex flex-wrap items-center gap-2">
                <code className="break-all rounded bg-muted px-1.5 py-0.5 font-mono text-xs sm:text-sm">{name}</code>
                {summary.missing.includes(name) && (
                  <Badge variant="outline" className="border-amber-500/60 text-amber-700 dark:text-amber-400">
                    Not set
                  </Badge>
                )}
              </li>
            ))}
          </ul>
        </div>

        <div className="space-y-2 rounded-md border border-amber-500/30 bg-amber-500/10 p-4 text-sm">
          <h3 className="flex items-center gap-2 font-semibold">
            <AlertTriangle className="size-4 text-amber-600" /> Important notes
          </h3>
          <ul className="list-disc space-y-1 pl-5">
            <li>A server restart is required for a change of mode to take effect.</li>
            <li>Set the environment variables that match the chosen mode before restarting.</li>
            <li>Test mode uses fake cards; no real payments are made.</li>
            <li>Live mode processes real payments from real cards.</li>
          </ul>
          {stripeConfig.data?.restartRequired && (
            <p className="font-medium">The saved mode differs from the running one: restart the server to apply it.</p>
          )}
        </div>

        {summary.showsTestCards && (
          <div className="space-y-2">
            <h3 className="flex items-center gap-2 text-sm font-semibold">
              <CreditCard className="size-4" /> Test cards
            </h3>
            <ul className="divide-y rounded-md border text-sm" data-testid="test-cards">
              {testCards.map((card) => (
                <li key={card.number} className="flex items-center justify-between gap-4 px-3 py-2">
                  <code className="font-mono">{card.number}</code>
                  <span className="text-muted-foreground">{card.outcome}</span>
                </li>
              ))}
            </ul>
            <p className="text-xs text-muted-foreground">Use any future expiry date and any 3-digit CVC.</p>
          </div>
        )}
      </SectionCard>
      <SecondFactorPolicyCard />
    </section>
  );
}

import type { PlatformSetting, StripeConfigResponse } from '@contract/billing';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { STRIPE_SANDBOX_MODE_SETTING, stripeEnvironmentVariables } from '../../../contract/billing';
import { failureToast } from '../../components/failure-toast';
import { toast } from '../../components/ui/use-toast';
import { apiRequest, getJson } from '../../lib/api-client';

export const PLATFORM_SETTINGS_PATH = '/api/admin/platform-settings';

export const platformSettingsQuery = () =>
  queryOptions({ queryKey: [PLATFORM_SETTINGS_PATH], queryFn: getJson<PlatformSetting[]> });
export const usePlatformSettings = () => useQuery(platformSettingsQuery());

export const stripeConfigQuery = () =>
  queryOptions({ queryKey: ['/api/stripe/config'], queryFn: getJson<StripeConfigResponse> });
export const useStripeConfig = () => useQuery(stripeConfigQuery());

/**
 * Whether the stored setting asks for sandbox (test) mode; without a stored value, the mode the server runs in,
 * and test mode when neither is known.
 */
export function isSandboxModeSetting(settings: readonly PlatformSetting[] | undefined, runningSandbox?: boolean) {
  const stored = settings?.find((setting) => setting.key === STRIPE_SANDBOX_MODE_SETTING)?.value;
  if (stored === 'true') return true;
  if (stored === 'false') return false;
  return runningSandbox ?? true;
}

/** The environment variables the server needs for a mode. */
export const requiredEnvironmentVariables = (isSandbox: boolean): readonly string[] =>
  isSandbox ? stripeEnvironmentVariables.test : stripeEnvironmentVariables.live;

export type PaymentModeSummary = {
  /** The selected mode (spec admin §2: the toggle's badge). */
  badge: 'Test Mode' | 'Live Mode';
  /** The running server charges nothing: the card says Payments Off beside the mode. */
  isOff: boolean;
  text: string;
  /** The selected mode's variables that are not set (empty when unknown or all set). */
  missing: readonly string[];
  /** Stripe's test cards help only while the running server takes test payments. */
  showsTestCards: boolean;
};

const listed = (names: readonly string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

/**
 * What the Settings card says about payments: the selected mode, the truth of the running server (billing off, or
 * Stripe in test or live mode) and what the selected mode still lacks; never test cards while nothing is charged.
 */
export function paymentModeSummary(isSandbox: boolean, running: StripeConfigResponse | undefined): PaymentModeSummary {
  const mode = isSandbox ? 'test' : 'live';
  const missing = running?.missingEnvironmentVariables?.[mode] ?? [];
  const isOff = running !== undefined && !running.billingEnabled;
  const badge = isSandbox ? 'Test Mode' : 'Live Mode';
  if (isOff) {
    const text =
      missing.length > 0
        ? `Payments are off: plans activate without a charge. Set ${listed(missing)} and restart the server to take payments in ${mode} mode.`
        : `Payments are off until the server restarts: the ${mode} mode variables are set.`;
    return { badge, isOff, text, missing, showsTestCards: false };
  }
  const text =
    missing.length > 0
      ? `After a restart payments will be off: set ${listed(missing)} first.`
      : isSandbox
        ? 'Payments use Stripe test mode: no real money moves.'
        : 'Payments are live: real cards are charged.';
  const showsTestCards = isSandbox && running?.sandboxMode !== false;
  return { badge, isOff, text, missing, showsTestCards };
}

/** PUT the sandbox setting (spec admin §7, §8): 'Setting Updated', or 'Error' with the server's message. */
export function useUpdateSandboxMode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (isSandbox: boolean) =>
      apiRequest<PlatformSetting>('PUT', PLATFORM_SETTINGS_PATH, {
        key: STRIPE_SANDBOX_MODE_SETTING,
        value: String(isSandbox),
      }),
    onSuccess: (saved, isSandbox) => {
      // The switch shows what was saved even if reading the settings back fails (issue 12).
      queryClient.setQueryData(platformSettingsQuery().queryKey, (current) => [
        ...(current ?? []).filter((setting) => setting.key !== saved.key),
        saved,
      ]);
      toast({
        title: 'Setting Updated',
        description: `Sandbox mode ${isSandbox ? 'enabled' : 'disabled'}. Restart the server for the change to take effect.`,
      });
    },
    onError: (error) => failureToast('Error', error, 'Failed to update setting'),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: platformSettingsQuery().queryKey });
      void queryClient.invalidateQueries({ queryKey: stripeConfigQuery().queryKey });
    },
  });
}

import type { PlatformSetting, StripeConfigResponse } from '@contract/billing';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { STRIPE_SANDBOX_MODE_SETTING, stripeEnvironmentVariables } from '../../../contract/billing';
import { toast } from '../../components/ui/use-toast';
import { apiRequest, getJson } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';

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

/** PUT the sandbox setting (spec admin §7, §8): 'Setting Updated', or 'Error' with the server's message. */
export function useUpdateSandboxMode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (isSandbox: boolean) =>
      apiRequest<PlatformSetting>('PUT', PLATFORM_SETTINGS_PATH, {
        key: STRIPE_SANDBOX_MODE_SETTING,
        value: String(isSandbox),
      }),
    onSuccess: (_saved, isSandbox) => {
      toast({
        title: 'Setting Updated',
        description: `Sandbox mode ${isSandbox ? 'enabled' : 'disabled'}. Restart the server for the change to take effect.`,
      });
    },
    onError: (error) =>
      toast({ variant: 'destructive', title: 'Error', description: errorMessage(error, 'Failed to update setting') }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: platformSettingsQuery().queryKey });
      void queryClient.invalidateQueries({ queryKey: stripeConfigQuery().queryKey });
    },
  });
}

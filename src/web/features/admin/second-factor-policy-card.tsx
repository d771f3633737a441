import {
  type PlatformSetting,
  REQUIRE_SECOND_FACTOR_ADMINS_SETTING,
  REQUIRE_SECOND_FACTOR_OWNERS_SETTING,
} from '@contract/billing';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { failureToast } from '../../components/failure-toast';
import { SectionCard } from '../../components/ui/card';
import { Label } from '../../components/ui/label';
import { Switch } from '../../components/ui/switch';
import { toast } from '../../components/ui/use-toast';
import { apiRequest } from '../../lib/api-client';
import { PLATFORM_SETTINGS_PATH, platformSettingsQuery, usePlatformSettings } from './admin-settings';

// The second-factor policy (issue 33 item 5): whether admins and organisation owners must have a passkey or an
// authenticator app. A person required to have one and without one is sent to enrol at their next sign-in.

const POLICIES = [
  {
    key: REQUIRE_SECOND_FACTOR_ADMINS_SETTING,
    label: 'Require a second factor for admins',
    description: 'On by default once an admin has a passkey or an authenticator app.',
  },
  {
    key: REQUIRE_SECOND_FACTOR_OWNERS_SETTING,
    label: 'Require a second factor for organisation owners',
    description: 'Owners without one are sent to set one up at their next sign-in.',
  },
] as const;

export function SecondFactorPolicyCard() {
  const settings = usePlatformSettings();
  const queryClient = useQueryClient();
  const update = useMutation({
    mutationFn: (setting: { key: string; value: string }) =>
      apiRequest<PlatformSetting>('PUT', PLATFORM_SETTINGS_PATH, setting),
    onSuccess: () => toast({ title: 'Setting Updated' }),
    onError: (error) => failureToast('Error', error, 'Failed to update setting'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: platformSettingsQuery().queryKey }),
  });
  const isOn = (key: string) => settings.data?.find((setting) => setting.key === key)?.value === 'true';
  return (
    <SectionCard
      icon={ShieldCheck}
      title="Sign-in Security"
      description="Who must sign in with a passkey or an authenticator app besides the e-mailed link."
      contentClassName="space-y-4"
    >
      {POLICIES.map((policy) => (
        <div key={policy.key} className="flex items-center justify-between gap-4 rounded-md border p-4">
          <div className="space-y-1">
            <Label htmlFor={policy.key} className="text-base">
              {policy.label}
            </Label>
            <p className="text-sm text-muted-foreground">{policy.description}</p>
          </div>
          <Switch
            id={policy.key}
            aria-label={policy.label}
            checked={isOn(policy.key)}
            disabled={settings.isLoading || update.isPending}
            onCheckedChange={(next) => update.mutate({ key: policy.key, value: String(next) })}
          />
        </div>
      ))}
    </SectionCard>
  );
}

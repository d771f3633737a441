import { LEAKED_TOKEN_SETTING_PATH, type LeakedTokenSetting } from '@contract/holder-tokens';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FailureAlert } from '../../components/load-error';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Label } from '../../components/ui/label';
import { NativeSelect } from '../../components/ui/native-select';
import { apiRequest, getJson } from '../../lib/api-client';
import { usePermission } from '../../lib/permissions';

/** What happens to a holder's token GitHub's secret scanning finds in public (issue 32 item 4). */
export function LeakedTokensCard() {
  const queryClient = useQueryClient();
  const manage = usePermission('organization:manage');
  const setting = useQuery({ queryKey: [LEAKED_TOKEN_SETTING_PATH], queryFn: getJson<LeakedTokenSetting> });
  const save = useMutation({
    mutationFn: (input: LeakedTokenSetting) => apiRequest<LeakedTokenSetting>('PUT', LEAKED_TOKEN_SETTING_PATH, input),
    onSuccess: (saved) => queryClient.setQueryData([LEAKED_TOKEN_SETTING_PATH], saved),
  });
  return (
    <Card data-testid="leaked-tokens-setting">
      <CardHeader>
        <CardTitle>Leaked tokens</CardTitle>
        <CardDescription>
          When GitHub finds one of your license holders' Composer tokens in public code, an issue or a gist, the holder
          and you are e-mailed where it was found. Choose what happens to the token.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-2">
        <Label htmlFor="leaked-token-action">Leaked token</Label>
        <NativeSelect
          id="leaked-token-action"
          value={setting.data?.leakedTokenAction ?? 'revoke'}
          disabled={!manage.allowed || !setting.data || save.isPending}
          title={manage.allowed ? undefined : manage.reason}
          onChange={(event) => save.mutate({ leakedTokenAction: event.target.value as 'revoke' | 'mark' })}
        >
          <option value="revoke">Revoke it at once</option>
          <option value="mark">Mark it leaked and keep it working for 24 hours</option>
        </NativeSelect>
        <FailureAlert error={setting.error ?? save.error} fallback="The setting could not be saved." />
      </CardContent>
    </Card>
  );
}

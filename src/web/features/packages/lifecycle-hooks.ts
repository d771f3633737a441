import type { AbandonPackageInput, Advisory, CreateAdvisoryInput, PackageLifecycle } from '@contract/lifecycle';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { failureToast } from '../../components/failure-toast';
import { toast } from '../../components/ui/use-toast';
import { apiRequest, getJson } from '../../lib/api-client';

// A package's security advisories, abandonment and yanked versions (issue 13), which license holders' Composer shows.

export type { Advisory, PackageLifecycle };

const lifecyclePath = (packageId: string) => `/api/repositories/${encodeURIComponent(packageId)}/lifecycle`;

export const lifecycleQuery = (packageId: string) =>
  queryOptions({ queryKey: [lifecyclePath(packageId)], queryFn: getJson<PackageLifecycle> });
export const useLifecycle = (packageId: string | undefined) =>
  useQuery({ ...lifecycleQuery(packageId ?? ''), enabled: Boolean(packageId) });

function useLifecycleMutation<Variables>(
  packageId: string,
  request: (variables: Variables) => Promise<unknown>,
  messages: { success: string; failure: string },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => {
      toast({ title: messages.success });
      return queryClient.invalidateQueries({ queryKey: lifecycleQuery(packageId).queryKey });
    },
    onError: (error) => failureToast('Error', error, messages.failure),
  });
}

const base = (packageId: string) => `/api/repositories/${encodeURIComponent(packageId)}`;

export const usePublishAdvisory = (packageId: string) =>
  useLifecycleMutation(
    packageId,
    (input: CreateAdvisoryInput) => apiRequest<Advisory>('POST', `${base(packageId)}/advisories`, input),
    { success: 'Advisory Published', failure: 'Failed to publish advisory' },
  );

export const useWithdrawAdvisory = (packageId: string) =>
  useLifecycleMutation(
    packageId,
    (advisoryId: string) => apiRequest('DELETE', `${base(packageId)}/advisories/${encodeURIComponent(advisoryId)}`),
    { success: 'Advisory Withdrawn', failure: 'Failed to withdraw advisory' },
  );

export const useAbandonPackage = (packageId: string) =>
  useLifecycleMutation(
    packageId,
    (input: AbandonPackageInput) => apiRequest('PUT', `${base(packageId)}/abandonment`, input),
    { success: 'Package Marked Abandoned', failure: 'Failed to mark package abandoned' },
  );

export const useReviveAbandonedPackage = (packageId: string) =>
  useLifecycleMutation(packageId, () => apiRequest('DELETE', `${base(packageId)}/abandonment`), {
    success: 'Abandoned Mark Removed',
    failure: 'Failed to remove the abandoned mark',
  });

export const useYankVersion = (packageId: string) =>
  useLifecycleMutation(
    packageId,
    ({ version, reason }: { version: string; reason: string }) =>
      apiRequest('PUT', `${base(packageId)}/versions/${encodeURIComponent(version)}/yank`, { reason }),
    { success: 'Version Yanked', failure: 'Failed to yank version' },
  );

export const useUnyankVersion = (packageId: string) =>
  useLifecycleMutation(
    packageId,
    (version: string) => apiRequest('DELETE', `${base(packageId)}/versions/${encodeURIComponent(version)}/yank`),
    { success: 'Version Restored', failure: 'Failed to restore version' },
  );

import type {
  CodeHostRepository,
  CreatePackageInput,
  CreatePackageResponse,
  Package,
  UpdatePackageInput,
} from '@contract/packages';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { failureToast } from '../../components/failure-toast';
import { toast } from '../../components/ui/use-toast';
import { dashboardAnalyticsQuery } from '../../lib/analytics';
import { apiRequest, getJson } from '../../lib/api-client';
import { useTaskProgress } from '../../lib/task-progress';
import { finishedPackageTasks } from './package-rules';

export type { CodeHostRepository, Package };

export const packagesQuery = () => queryOptions({ queryKey: ['/api/repositories'], queryFn: getJson<Package[]> });
export const usePackages = () => useQuery(packagesQuery());

/** The code host's repositories, read when the add-package dialog is open. */
export const codeHostRepositoriesQuery = () =>
  queryOptions({ queryKey: ['/api/github/repositories'], queryFn: getJson<CodeHostRepository[]> });
export const useCodeHostRepositories = (enabled: boolean) => useQuery({ ...codeHostRepositoriesQuery(), enabled });

/** Package changes move the stat cards too. */
function useInvalidatePackages() {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: packagesQuery().queryKey }),
        queryClient.invalidateQueries({ queryKey: dashboardAnalyticsQuery().queryKey }),
      ]),
    [queryClient],
  );
}

export function useCreatePackage() {
  const invalidate = useInvalidatePackages();
  return useMutation({
    mutationFn: (input: CreatePackageInput) => apiRequest<CreatePackageResponse>('POST', '/api/repositories', input),
    onSuccess: () => {
      toast({ title: 'Success!', description: 'Package created successfully' });
      return invalidate();
    },
    onError: (error) => failureToast('Error', error, 'Failed to create package'),
  });
}

export function useUpdatePackage() {
  const invalidate = useInvalidatePackages();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdatePackageInput }) =>
      apiRequest<Package>('PUT', `/api/repositories/${encodeURIComponent(id)}`, input),
    onSuccess: (updated) => {
      toast({ title: 'Package Updated', description: `${updated.packageName} has been saved.` });
      return invalidate();
    },
    onError: (error) => failureToast('Failed to update package', error, 'Failed to update package'),
  });
}

export function useDeletePackage() {
  const invalidate = useInvalidatePackages();
  return useMutation({
    mutationFn: (pkg: Pick<Package, 'id' | 'packageName'>) =>
      apiRequest<unknown>('DELETE', `/api/repositories/${encodeURIComponent(pkg.id)}`),
    onSuccess: (_answer, pkg) => {
      toast({ title: 'Repository Deleted', description: `${pkg.packageName} has been deleted.` });
      return invalidate();
    },
    onError: (error) => failureToast('Failed to delete repository', error, 'Failed to delete repository'),
  });
}

/** Re-reads the repository's tags and branches in the background; the task-progress widget shows the sync. */
export function useRefreshPackage() {
  const invalidate = useInvalidatePackages();
  return useMutation({
    mutationFn: (pkg: Pick<Package, 'id' | 'packageName'>) =>
      apiRequest<{ taskId: string }>('POST', `/api/repositories/${encodeURIComponent(pkg.id)}/refresh`),
    onSuccess: (_answer, pkg) => {
      toast({ title: 'Sync Started', description: `Reading new tags and branches of ${pkg.packageName}.` });
      return invalidate();
    },
    onError: (error) => failureToast('Sync Failed', error, 'Failed to start the sync'),
  });
}

/** Final package tasks already answered with a refetch; module-wide, so a page opened later catches up once. */
const handledPackageTasks = new Set<string>();

/** Refetches the packages (versions, sync state) and the stat cards whenever a package task finishes. */
export function useRefetchPackagesAfterSync() {
  const { tasks } = useTaskProgress();
  const invalidate = useInvalidatePackages();
  useEffect(() => {
    const finished = finishedPackageTasks(tasks, handledPackageTasks);
    if (finished.length === 0) return;
    for (const taskId of finished) handledPackageTasks.add(taskId);
    void invalidate();
  }, [tasks, invalidate]);
}

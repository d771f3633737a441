import type {
  CreateTemporaryLicenseInput,
  Customer,
  CustomerGrant,
  RegenerateTokenResponse,
  TemporaryLicense,
} from '@contract/licenses';
import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useCallback } from 'react';
import { failureToast } from '../../components/failure-toast';
import { toast } from '../../components/ui/use-toast';
import { dashboardAnalyticsQuery } from '../../lib/analytics';
import { apiRequest, getJson } from '../../lib/api-client';
import { LICENSE_HOLDERS_PAGE_SIZE } from '../../lib/constants';

export type { Customer, CustomerGrant, TemporaryLicense };

/** The package a license belongs to. */
export type LicensedPackage = { id: string; packageName: string };

const temporaryLicensesPath = (packageId: string) =>
  `/api/repositories/${encodeURIComponent(packageId)}/temporary-licenses`;

/** Read afresh whenever the dialog opens: days left and last use move on their own. */
export const temporaryLicensesQuery = (packageId: string) =>
  queryOptions({
    queryKey: [temporaryLicensesPath(packageId)],
    queryFn: getJson<TemporaryLicense[]>,
    refetchOnMount: 'always',
  });

export const useTemporaryLicenses = (packageId: string) => useQuery(temporaryLicensesQuery(packageId));

const customersPath = (search: string, after: string | undefined) => {
  const params = new URLSearchParams({ limit: String(LICENSE_HOLDERS_PAGE_SIZE) });
  if (search) params.set('q', search);
  if (after) params.set('after', after);
  return `/api/customers?${params}`;
};

/**
 * License holders, a page at a time (the server searches them), loaded when the Access Management tab is open and
 * afresh each time it opens. Without a search the key is every search's prefix: invalidating it reloads them all.
 * A full page may have a next one, which starts after its last holder.
 */
export const customersQuery = (search = '') =>
  infiniteQueryOptions({
    queryKey: search ? ['/api/customers', search] : ['/api/customers'],
    queryFn: ({ pageParam }) => apiRequest<Customer[]>('GET', customersPath(search, pageParam)),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page: Customer[]) => (page.length === LICENSE_HOLDERS_PAGE_SIZE ? page.at(-1)?.id : undefined),
    refetchOnMount: 'always',
  });

/** Keeps the holders shown while another search's first page loads. */
export const useCustomers = (search: string) =>
  useInfiniteQuery({ ...customersQuery(search), placeholderData: keepPreviousData });

/** A license changes the package's list, the holders and the stat cards (Total Users). */
function useInvalidateLicenses() {
  const queryClient = useQueryClient();
  return useCallback(
    (packageId?: string) =>
      Promise.all([
        packageId && queryClient.invalidateQueries({ queryKey: temporaryLicensesQuery(packageId).queryKey }),
        queryClient.invalidateQueries({ queryKey: customersQuery().queryKey }),
        queryClient.invalidateQueries({ queryKey: dashboardAnalyticsQuery().queryKey }),
      ]),
    [queryClient],
  );
}

export function useCreateTemporaryLicense(pkg: LicensedPackage) {
  const invalidate = useInvalidateLicenses();
  return useMutation({
    mutationFn: (input: CreateTemporaryLicenseInput) =>
      apiRequest<TemporaryLicense>('POST', temporaryLicensesPath(pkg.id), input),
    onSuccess: (license, input) => {
      toast({
        title: 'Temporary License Created',
        description: `${input.durationDays}-day access granted to ${license.email}`,
      });
      return invalidate(pkg.id);
    },
    onError: (error) => failureToast('Failed to create temporary license', error),
  });
}

export function useRevokeTemporaryLicense(pkg: LicensedPackage) {
  const invalidate = useInvalidateLicenses();
  return useMutation({
    mutationFn: (license: TemporaryLicense) =>
      apiRequest<unknown>('DELETE', `${temporaryLicensesPath(pkg.id)}/${encodeURIComponent(license.id)}`),
    onSuccess: (_answer, license) => {
      toast({ title: 'License Revoked', description: `${license.email} can no longer install ${pkg.packageName}.` });
      return invalidate(pkg.id);
    },
    onError: (error) => failureToast('Failed to revoke license', error),
  });
}

export function useRegenerateToken() {
  const invalidate = useInvalidateLicenses();
  return useMutation({
    mutationFn: (email: string) =>
      apiRequest<RegenerateTokenResponse>('POST', '/api/customers/regenerate-token', { email }),
    onSuccess: (answer, email) => {
      toast({ title: 'Token regenerated', description: `A new token was e-mailed to ${answer?.email ?? email}` });
      return invalidate();
    },
    onError: (error) => failureToast('Failed to regenerate token', error),
  });
}

import type { IssuedLicense, IssueLicenseInput, License, UpdateLicenseInput } from '@contract/licenses';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { failureToast } from '../../components/failure-toast';
import { toast } from '../../components/ui/use-toast';
import { dashboardAnalyticsQuery } from '../../lib/analytics';
import { apiRequest, getJson } from '../../lib/api-client';
import { customersQuery, type LicensedPackage, temporaryLicensesQuery } from './license-hooks';

export type { IssuedLicense, License };

const packageLicensesPath = (packageId: string) => `/api/repositories/${encodeURIComponent(packageId)}/licenses`;

/** Every license of a package, of any kind; read afresh whenever the dialog opens. */
export const packageLicensesQuery = (packageId: string) =>
  queryOptions({ queryKey: [packageLicensesPath(packageId)], queryFn: getJson<License[]>, refetchOnMount: 'always' });

export const usePackageLicenses = (packageId: string) => useQuery(packageLicensesQuery(packageId));

/** A license changes the package's lists, the holders and the stat cards. */
function useInvalidatePackageLicenses(packageId: string) {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: packageLicensesQuery(packageId).queryKey }),
        queryClient.invalidateQueries({ queryKey: temporaryLicensesQuery(packageId).queryKey }),
        queryClient.invalidateQueries({ queryKey: customersQuery().queryKey }),
        queryClient.invalidateQueries({ queryKey: dashboardAnalyticsQuery().queryKey }),
      ]),
    [queryClient, packageId],
  );
}

/**
 * Issues a license for the dialog's package, or with `packageIds` (issue 31) one license per package for the same
 * holder in one call: one transaction, one e-mail listing them all.
 */
export function useIssueLicense(pkg: LicensedPackage) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidatePackageLicenses(pkg.id);
  return useMutation({
    mutationFn: ({ packageIds, ...input }: IssueLicenseInput & { packageIds?: string[] }) =>
      packageIds && !(packageIds.length === 1 && packageIds[0] === pkg.id)
        ? apiRequest<IssuedLicense>('POST', '/api/licenses', { ...input, packageIds })
        : apiRequest<IssuedLicense>('POST', packageLicensesPath(pkg.id), input),
    onSuccess: (issued) => {
      const several = issued.licenses.length > 1;
      toast(
        several
          ? {
              title: `${issued.licenses.length} Licenses Issued`,
              description: issued.emailSent
                ? `${issued.license.email} may install ${issued.licenses.length} packages; one e-mail lists them all.`
                : `${issued.license.email} may install ${issued.licenses.length} packages.`,
            }
          : {
              title: issued.outcome === 'renewed' ? 'License Updated' : 'License Issued',
              description: `${issued.license.email} may install ${issued.license.packageName}.`,
            },
      );
      // The other packages' lists changed too.
      const others = issued.licenses.filter((license) => license.packageId && license.packageId !== pkg.id);
      return Promise.all([
        invalidate(),
        ...others.map((license) =>
          queryClient.invalidateQueries({ queryKey: [packageLicensesPath(license.packageId ?? '')] }),
        ),
      ]);
    },
    onError: (error) => failureToast('Failed to issue license', error),
  });
}

export function useUpdateLicense(pkg: LicensedPackage) {
  const invalidate = useInvalidatePackageLicenses(pkg.id);
  return useMutation({
    mutationFn: ({ license, changes }: { license: License; changes: UpdateLicenseInput }) =>
      apiRequest<License>('PATCH', `/api/licenses/${encodeURIComponent(license.id)}`, changes),
    onSuccess: (_answer, { license, changes }) => {
      toast(
        changes.status === 'revoked'
          ? { title: 'License Revoked', description: `${license.email} can no longer install ${pkg.packageName}.` }
          : changes.status === 'active'
            ? { title: 'License Restored', description: `${license.email} may install ${pkg.packageName} again.` }
            : {
                title: 'License Updated',
                description: `New terms for ${license.email} apply from their next request.`,
              },
      );
      return invalidate();
    },
    onError: (error, { changes }) =>
      failureToast(changes.status === 'revoked' ? 'Failed to revoke license' : 'Failed to update license', error),
  });
}

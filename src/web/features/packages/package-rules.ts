import type { CodeHostRepository, Package } from '@contract/packages';
import type { SubscriptionStatus } from '../../lib/subscriptions/subscription-status';
import { isTaskRunning, type TaskProgressEvent } from '../../lib/task-progress';

// The Management page's rules (spec seller-app §2, §4, §5), kept apart from React so they can be tested.

export const packageFilters = ['all', 'active', 'inactive'] as const;
export type PackageFilter = (typeof packageFilters)[number];
export const packageFilterLabels: Record<PackageFilter, string> = {
  all: 'All Packages',
  active: 'Active Only',
  inactive: 'Inactive Only',
};

export const isPackageFilter = (value: string): value is PackageFilter =>
  packageFilters.some((filter) => filter === value);

type FilterablePackage = Pick<Package, 'packageName' | 'description' | 'fullName' | 'isActive'>;

/** Packages matching the filter whose name, description or repository contain the search, ignoring case. */
export function filterPackages<T extends FilterablePackage>(
  packages: readonly T[],
  search: string,
  filter: PackageFilter,
): T[] {
  const needle = search.trim().toLowerCase();
  return packages.filter((pkg) => {
    if (filter === 'active' && !pkg.isActive) return false;
    if (filter === 'inactive' && pkg.isActive) return false;
    if (!needle) return true;
    return [pkg.packageName, pkg.description, pkg.fullName].some((field) => field?.toLowerCase().includes(needle));
  });
}

/**
 * Add Package (spec §4): shown to admins and to sellers on an active plan or trial; enabled unless the trial
 * has expired or the subscription is inactive. A trial that has run out keeps its stored status `trial`, so
 * its seller sees the button, disabled, rather than nothing.
 */
export function addPackageAvailability(
  isAdmin: boolean,
  status: Pick<SubscriptionStatus, 'subscriptionStatus' | 'status'> | undefined,
): { isVisible: boolean; isEnabled: boolean } {
  if (isAdmin) return { isVisible: true, isEnabled: true };
  if (!status) return { isVisible: false, isEnabled: false };
  const isVisible = [status.subscriptionStatus, status.status].some((value) => value === 'active' || value === 'trial');
  const isEnabled = status.subscriptionStatus !== 'trial_expired' && status.subscriptionStatus !== 'inactive';
  return { isVisible, isEnabled: isVisible && isEnabled };
}

/** The package name a repository suggests: its full name in lower case (Composer names are lower case). */
export const suggestPackageName = (fullName: string): string => fullName.trim().toLowerCase();

export type PackageDetails = { packageName: string; description: string };

/**
 * The details after picking `next` (spec §4): the name follows the repository, and the description is
 * taken from it when empty. What the seller typed is kept: a field still holding what the previously
 * picked repository suggested counts as untouched.
 */
export function prefillPackageDetails(
  current: PackageDetails,
  previous: Pick<CodeHostRepository, 'fullName' | 'description' | 'composerName'> | undefined,
  next: Pick<CodeHostRepository, 'fullName' | 'description' | 'composerName'>,
): PackageDetails {
  // composer.json's own name wins: Composer reads the name from there, so the package must carry it.
  const suggestionFor = (repository: Pick<CodeHostRepository, 'fullName' | 'composerName'>) =>
    repository.composerName ?? suggestPackageName(repository.fullName);
  const nameUntouched = !current.packageName.trim() || (previous && current.packageName === suggestionFor(previous));
  const descriptionUntouched =
    !current.description.trim() || (previous && current.description === (previous.description ?? ''));
  return {
    packageName: nameUntouched ? suggestionFor(next) : current.packageName,
    description: descriptionUntouched ? (next.description ?? '') : current.description,
  };
}

export const addPackageMessages = {
  repositoryRequired: 'Please select a repository',
  fieldsRequired: 'Please fill in all required fields',
} as const;

/** Why the new package cannot be created yet (spec §5), or undefined when it can. */
export function newPackageProblem(repository: unknown, packageName: string): string | undefined {
  if (!repository) return addPackageMessages.repositoryRequired;
  if (!packageName.trim()) return addPackageMessages.fieldsRequired;
  return undefined;
}

/** Dates in en-US (spec seller-app §9), one format across the app. */
export { formatDate } from '../../lib/format-date';

const PACKAGE_TASK_TYPES: readonly TaskProgressEvent['type'][] = ['github-sync', 'package-pre-cache'];

/** Package sync and pre-cache tasks that finished and have not been answered yet. */
export function finishedPackageTasks(tasks: readonly TaskProgressEvent[], handled: ReadonlySet<string>): string[] {
  return tasks
    .filter((task) => PACKAGE_TASK_TYPES.includes(task.type) && !isTaskRunning(task) && !handled.has(task.taskId))
    .map((task) => task.taskId);
}

/**
 * The Refresh Failed toast's words in the Add Package dialog: the spec's text names GitHub, and on an installation
 * without GitHub the repositories come from the local repository folder, which the toast names instead.
 */
export const repositoryRefreshFailure = (githubCodeHost: boolean): string =>
  githubCodeHost
    ? 'Failed to refresh repositories from GitHub'
    : 'Failed to refresh repositories from the local repository folder';

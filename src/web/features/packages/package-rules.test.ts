import { describe, expect, it } from 'vitest';
import {
  addPackageAvailability,
  filterPackages,
  finishedPackageTasks,
  newPackageProblem,
  prefillPackageDetails,
  repositoryRefreshFailure,
  suggestPackageName,
} from './package-rules';

const widget = { packageName: 'acme/widget', description: 'Widgets for PHP', fullName: 'Acme/widget', isActive: true };
const gadget = { packageName: 'acme/gadget', description: null, fullName: 'acme/gadget-src', isActive: false };
const tools = { packageName: 'tools/cli', description: 'Command line helpers', fullName: 'tools/cli', isActive: true };
const all = [widget, gadget, tools];

describe('filterPackages', () => {
  it('keeps every package for All Packages and an empty search', () => {
    expect(filterPackages(all, '', 'all')).toEqual(all);
    expect(filterPackages(all, '   ', 'all')).toEqual(all);
  });

  it('keeps only active or only inactive packages', () => {
    expect(filterPackages(all, '', 'active')).toEqual([widget, tools]);
    expect(filterPackages(all, '', 'inactive')).toEqual([gadget]);
  });

  it('searches name, description and repository, ignoring case', () => {
    expect(filterPackages(all, 'WIDGET', 'all')).toEqual([widget]);
    expect(filterPackages(all, 'helpers', 'all')).toEqual([tools]);
    expect(filterPackages(all, 'gadget-src', 'all')).toEqual([gadget]);
    expect(filterPackages(all, 'acme', 'active')).toEqual([widget]);
    expect(filterPackages(all, 'nothing like it', 'all')).toEqual([]);
  });
});

describe('addPackageAvailability', () => {
  const status = (subscriptionStatus: string, stored: string | null) =>
    ({ subscriptionStatus, status: stored }) as Parameters<typeof addPackageAvailability>[1];

  it('shows an enabled button to admins whatever their status', () => {
    expect(addPackageAvailability(true, undefined)).toEqual({ isVisible: true, isEnabled: true });
  });

  it('shows an enabled button on an active plan or a running trial', () => {
    expect(addPackageAvailability(false, status('active', 'active'))).toEqual({ isVisible: true, isEnabled: true });
    expect(addPackageAvailability(false, status('trial', 'trial'))).toEqual({ isVisible: true, isEnabled: true });
  });

  it('disables the button once the trial has expired', () => {
    expect(addPackageAvailability(false, status('trial_expired', 'trial'))).toEqual({
      isVisible: true,
      isEnabled: false,
    });
  });

  it('hides it before a plan is picked, when inactive or expired, and while the status is unknown', () => {
    for (const hidden of [
      status('tier_selection_required', null),
      status('inactive', 'inactive'),
      status('expired', 'expired'),
      undefined,
    ]) {
      expect(addPackageAvailability(false, hidden).isVisible).toBe(false);
      expect(addPackageAvailability(false, hidden).isEnabled).toBe(false);
    }
  });
});

describe('package name and description prefill', () => {
  const repoA = { fullName: 'Acme/Widget', description: 'Widgets', composerName: null };
  const repoB = { fullName: 'acme/Gadget', description: null, composerName: null };
  const empty = { packageName: '', description: '' };

  it('suggests the full name in lower case', () => {
    expect(suggestPackageName(' Acme/Widget ')).toBe('acme/widget');
  });

  it('fills name and description from the first repository picked', () => {
    expect(prefillPackageDetails(empty, undefined, repoA)).toEqual({
      packageName: 'acme/widget',
      description: 'Widgets',
    });
  });

  it('follows the repository when the seller changes their pick without typing', () => {
    const afterA = prefillPackageDetails(empty, undefined, repoA);
    expect(prefillPackageDetails(afterA, repoA, repoB)).toEqual({ packageName: 'acme/gadget', description: '' });
  });

  it('keeps a description the seller wrote and a name they changed', () => {
    const typed = { packageName: 'acme/widget-pro', description: 'My own words' };
    expect(prefillPackageDetails(typed, repoA, repoB)).toEqual(typed);
  });

  it('suggests the name composer.json declares, since Composer reads the name from there', () => {
    const local = { fullName: 'local/acme-widget', description: null, composerName: 'acme/widget' };
    expect(prefillPackageDetails(empty, undefined, local).packageName).toBe('acme/widget');
    const afterLocal = prefillPackageDetails(empty, undefined, local);
    expect(prefillPackageDetails(afterLocal, local, repoB).packageName).toBe('acme/gadget');
  });

  it('takes the description only when the field is empty', () => {
    expect(prefillPackageDetails({ packageName: '', description: 'Mine' }, undefined, repoA)).toEqual({
      packageName: 'acme/widget',
      description: 'Mine',
    });
  });
});

describe('newPackageProblem', () => {
  it('asks for a repository first, then for the required fields', () => {
    expect(newPackageProblem(undefined, 'acme/widget')).toBe('Please select a repository');
    expect(newPackageProblem({}, '  ')).toBe('Please fill in all required fields');
    expect(newPackageProblem({}, 'acme/widget')).toBeUndefined();
  });
});

describe('finishedPackageTasks', () => {
  const event = (taskId: string, type: 'github-sync' | 'package-pre-cache' | 'cache-clear', status: string) =>
    ({ taskId, type, status, message: '', progress: 0, timestamp: '2026-03-01T12:00:00Z' }) as Parameters<
      typeof finishedPackageTasks
    >[0][number];

  it('names finished sync and pre-cache tasks not handled yet', () => {
    const tasks = [
      event('a', 'github-sync', 'completed'),
      event('b', 'package-pre-cache', 'failed'),
      event('c', 'github-sync', 'progress'),
      event('d', 'cache-clear', 'completed'),
      event('e', 'github-sync', 'completed'),
    ];
    expect(finishedPackageTasks(tasks, new Set(['e']))).toEqual(['a', 'b']);
  });
});

describe('repositoryRefreshFailure', () => {
  it('names the code host in use: the spec’s words for GitHub, the local repository folder otherwise', () => {
    expect(repositoryRefreshFailure(true)).toBe('Failed to refresh repositories from GitHub');
    expect(repositoryRefreshFailure(false)).toBe('Failed to refresh repositories from the local repository folder');
  });
});

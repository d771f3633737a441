import { beforeAll, describe, expect, it } from 'vitest';
import type { PackageLifecycle } from '../../src/contract/lifecycle.js';
import { addSyncedPackage } from '../support/packages.js';
import { sellerPageAroundTests } from './support/seller-page.js';
import { openPackageAction } from './support/seller-screens.js';

// The seller's Security & Lifecycle dialog, opened from the package card's menu: a constraint Composer could not
// read is refused with the reason, an advisory is published and withdrawn, a version yanked with its reason and
// restored, and the package marked abandoned with a replacement (issue 13).

let packageId: string;

const toast = (text: string) => dashboard.page.getByText(text, { exact: true }).first().waitFor();

async function lifecycle(): Promise<PackageLifecycle> {
  const { seller } = dashboard;
  return (await (await seller.client.get(`/api/repositories/${packageId}/lifecycle`)).json()) as PackageLifecycle;
}

const dashboard = sellerPageAroundTests({ onTrial: true });

beforeAll(async () => {
  const { app, seller } = dashboard;
  packageId = await addSyncedPackage(app, seller, 'acme/gizmo', ['v1.0.0', 'v1.1.0']);
});

describe('Security & Lifecycle', () => {
  it('publishes, yanks and abandons from the package card', async () => {
    const { page, origin } = dashboard;
    await page.goto(`${origin}/management`);
    const dialog = await openPackageAction(page, 'acme/gizmo', 'Security & Lifecycle');
    await dialog.getByText('No advisories published.').waitFor();

    await dialog.getByLabel('Title *').fill('Path traversal in the gizmo cache');
    // The contract's own rules run in the form: a malformed CVE is refused at its field and nothing is sent.
    await dialog.getByLabel('Affected versions *').fill('<1.1.0');
    await dialog.getByLabel('CVE').fill('CVE-26');
    await dialog.getByRole('button', { name: 'Publish Advisory' }).click();
    await dialog.getByText('CVE must look like CVE-2026-12345').waitFor();
    expect(await dialog.getByLabel('CVE').getAttribute('aria-invalid')).toBe('true');
    expect((await lifecycle()).advisories).toEqual([]);
    await dialog.getByLabel('CVE').fill('');

    await dialog.getByLabel('Affected versions *').fill('>=1.0,');
    await dialog.getByRole('button', { name: 'Publish Advisory' }).click();
    await page
      .getByText(/Could not parse version constraint/)
      .first()
      .waitFor();

    await dialog.getByLabel('Affected versions *').fill('<1.1.0');
    await dialog.getByLabel('CVE').fill('CVE-2026-55555');
    await dialog.getByRole('button', { name: 'Publish Advisory' }).click();
    await toast('Advisory Published');
    await dialog.getByText('Path traversal in the gizmo cache').waitFor();
    expect((await lifecycle()).advisories.map((advisory) => advisory.affectedVersions)).toEqual(['<1.1.0']);
    await dialog.getByRole('button', { name: 'Withdraw' }).click();
    await dialog.getByText('Withdrawn', { exact: true }).waitFor();

    await dialog.getByRole('tab', { name: 'Versions' }).click();
    await dialog.getByLabel('Reason for yanking v1.1.0').fill('Breaks PHP 8.1');
    await dialog.getByRole('button', { name: 'Yank' }).first().click();
    await toast('Version Yanked');
    await dialog.getByText('Yanked', { exact: true }).waitFor();
    expect((await lifecycle()).versions.find((version) => version.version === 'v1.1.0')?.yank?.reason).toBe(
      'Breaks PHP 8.1',
    );
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await toast('Version Restored');

    await dialog.getByRole('tab', { name: 'Abandon' }).click();
    await dialog.getByLabel('Replacement package').fill('acme/gizmo-ng');
    await dialog.getByRole('button', { name: 'Mark Abandoned' }).click();
    await toast('Package Marked Abandoned');
    await dialog.getByText('acme/gizmo-ng').waitFor();
    expect((await lifecycle()).abandoned?.replacement).toBe('acme/gizmo-ng');
  });
});

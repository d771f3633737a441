import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPackageRepository } from '../support/git-fixtures.js';
import { gitServersAroundTests } from '../support/git-servers.js';
import { sellerPageAroundTests } from './support/seller-page.js';

// Any git server in a real browser (issue 30 item 4): the seller adds a repository by its URL in Add Package, over
// HTTPS with a user name and password, and over SSH, where the deploy key to add and the pinned host key's
// fingerprint are shown, and stay shown on the package.

describe('Add Package from any git server', () => {
  const credentials = { username: 'ci-reader', password: 'correct horse battery staple' };
  const servers = gitServersAroundTests('packgate-e2e-git-', credentials, async (repos) => {
    for (const name of ['widget', 'gadget']) {
      await createPackageRepository(path.join(repos, 'acme', `${name}.git`), {
        name: `acme/${name}`,
        tags: ['v1.0.0'],
        bare: true,
      });
    }
  });

  const dashboard = sellerPageAroundTests({
    app: { env: { CODE_HOST_ALLOW_PRIVATE_NETWORKS: 'true' } },
    onTrial: true,
  });

  async function openGitUrlForm() {
    const { page, origin } = dashboard;
    await page.goto(`${origin}/management?action=add-package`);
    const dialog = page.getByRole('dialog', { name: 'Add New Package' });
    await dialog.waitFor();
    await dialog.getByText('Or add a repository from any git server by its URL').click();
    return dialog;
  }

  it('adds a repository over HTTPS with a user name and password, named by its composer.json', async () => {
    const { page, origin } = dashboard;
    // Code hosts offers any git server, and sends the seller to Add Package's URL field.
    await page.goto(`${origin}/code-hosts`);
    await page.getByText('Any git server').waitFor();
    await page.getByTestId('add-git-url').click();
    const dialog = page.getByRole('dialog', { name: 'Add New Package' });
    await dialog.waitFor();
    await dialog.getByText('Or add a repository from any git server by its URL').click();
    await dialog.getByLabel('Repository URL').fill(`${servers.http.url}/acme/widget.git`);
    await dialog.getByLabel('User name').fill(credentials.username);
    await dialog.getByLabel('Password or token').fill(credentials.password);
    await dialog.getByRole('button', { name: 'Create Package from URL' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('acme/widget').first().waitFor();
  });

  it('adds a repository over SSH and shows the deploy key and the pinned host key, there and on the package', async () => {
    const { page } = dashboard;
    const dialog = await openGitUrlForm();
    await dialog.getByLabel('Repository URL').fill(servers.ssh.urlFor('acme/gadget.git'));
    expect(await dialog.getByLabel('User name').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Create Package and Deploy Key' }).click();
    const created = dialog.getByTestId('git-url-created');
    await created.waitFor();
    const key = await created.getByTestId('deploy-key-text').textContent();
    expect(key).toMatch(/^ssh-ed25519 AAAA\S+ packgate acme\/gadget$/);
    expect(await created.textContent()).toContain(servers.ssh.hostKeyFingerprint);
    await created.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const onCard = page.getByTestId('deploy-key-text');
    await onCard.waitFor();
    expect(await onCard.textContent()).toBe(key);
  });
});

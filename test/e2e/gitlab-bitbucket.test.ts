import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeBitbucket, startFakeBitbucket } from '../fakes/bitbucket.js';
import { type FakeGitlab, startFakeGitlab } from '../fakes/gitlab.js';
import { createPackageRepository, createTempDir, removeTempDir } from '../support/git-fixtures.js';
import { sellerPageAroundTests } from './support/seller-page.js';

// GitLab and Bitbucket Cloud on the Code hosts page in a real browser (issue 30 items 2, 3 and 6): Connect GitLab
// goes through the fake GitLab's consent page and back; a Bitbucket workspace token is pasted in its form; Add
// Package lists the workspace's repositories; once the token is revoked, Management says what happened and what to do.

describe('GitLab and Bitbucket on Code hosts', () => {
  let gitlab: FakeGitlab;
  let bitbucket: FakeBitbucket;
  let workspace: string;
  let bitbucketToken: string;

  beforeAll(async () => {
    gitlab = await startFakeGitlab();
    bitbucket = await startFakeBitbucket();
    workspace = await createTempDir('packgate-e2e-hosts-');
    const gadget = await createPackageRepository(path.join(workspace, 'acme', 'gadget.git'), {
      name: 'acme/gadget',
      description: 'Gadgets for PHP',
      tags: ['v1.0.0'],
      bare: true,
    });
    bitbucket.addRepository({ workspace: 'acme', slug: 'gadget', gitDir: gadget.dir });
    gitlab.addUser({ username: 'ada' });
    gitlab.setApprovingUser('ada');
    bitbucketToken = bitbucket.issueAccessToken({ workspace: 'acme' });
  });

  afterAll(async () => {
    await gitlab?.close();
    await bitbucket?.close();
    await removeTempDir(workspace);
  });

  const dashboard = sellerPageAroundTests(() => ({
    app: { env: { ...gitlab.env(), ...bitbucket.env(), CODE_HOST_ALLOW_PRIVATE_NETWORKS: 'true' } },
    onTrial: true,
  }));

  it('connects GitLab through its consent page and lists the connection read-only', async () => {
    const { page, origin } = dashboard;
    await page.goto(`${origin}/code-hosts`);
    await page.getByTestId('connect-gitlab-oauth').click();
    await page.waitForURL((url) => url.pathname === '/code-hosts' && url.searchParams.get('connected') === 'gitlab');
    await page.getByTestId('gitlab-connected').waitFor();
    const row = page.getByTestId('connection').filter({ hasText: 'ada on' });
    await row.waitFor();
    expect(await row.textContent()).toContain('read_api, read_repository');
  });

  it('connects a Bitbucket workspace with an access token pasted in its form', async () => {
    const { page, origin } = dashboard;
    await page.goto(`${origin}/code-hosts`);
    const form = page.getByTestId('bitbucket-form');
    await form.getByLabel('Workspace').fill('acme');
    await form.getByLabel('Access token').fill(bitbucketToken);
    await form.getByRole('button', { name: 'Connect Bitbucket' }).click();
    const row = page.getByTestId('connection').filter({ hasText: 'acme workspace on Bitbucket' });
    await row.waitFor();
    expect(await row.textContent()).toContain('every repository of the workspace acme');
    expect(await form.getByLabel('Access token').inputValue()).toBe('');
  });

  it('adds a Bitbucket repository from Add Package, and shows on Management when the token is revoked', async () => {
    const { page, origin } = dashboard;
    await page.goto(`${origin}/management?action=add-package`);
    const dialog = page.getByRole('dialog', { name: 'Add New Package' });
    await dialog.waitFor();
    await dialog.getByTestId('repository-group').getByText('acme workspace on Bitbucket').waitFor();
    await dialog.getByRole('radio', { name: /acme\/gadget/ }).click();
    expect(await dialog.locator('#add-package-name').inputValue()).toBe('acme/gadget');
    await dialog.getByRole('button', { name: 'Create Package' }).click();
    await dialog.waitFor({ state: 'detached' });
    const card = page.getByTestId('package-card').filter({ hasText: 'acme/gadget' });
    await card.waitFor();

    bitbucket.revokeToken(bitbucketToken);
    await card.getByRole('button', { name: 'Actions for acme/gadget' }).click();
    await page.getByRole('menuitem', { name: 'Sync Now' }).click();
    const problem = card.getByTestId('access-problem');
    await problem.waitFor();
    expect(await problem.textContent()).toMatch(/Bitbucket refused .*Connect Bitbucket again on Code hosts/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGitHub, startFakeGitHub } from '../fakes/github.js';
import { attachGithubApp, type FakeGithubApp } from '../fakes/github-app.js';
import { sellerPageAroundTests } from './support/seller-page.js';
import { openFromAccountMenu } from './support/seller-screens.js';

// The Code hosts page in a real browser (issue 30 item 7): the seller installs the GitHub App from it (the fake
// GitHub's install page sends them back through the Setup URL), Add Package lists the installation's repositories,
// and removing the connection asks first and leaves the page without it.

describe('Code hosts', () => {
  let github: FakeGitHub;
  let githubApp: FakeGithubApp;

  // Registered before the page's set-up, so it runs after the app talking to the fake GitHub is closed.
  afterAll(async () => {
    await github?.close();
  });

  const dashboard = sellerPageAroundTests(async () => {
    github = await startFakeGitHub();
    githubApp = attachGithubApp(github);
    return { app: { env: { ...github.env(), ...githubApp.env() } }, onTrial: true };
  });

  beforeAll(async () => {
    const { origin } = dashboard;
    github.addUser({ login: 'acme' });
    const widget = github.addRepo({
      owner: 'acme',
      name: 'widget',
      description: 'Widgets for PHP',
      files: { 'composer.json': '{"name": "acme/widget"}' },
    });
    github.addRepo({ owner: 'acme', name: 'not-picked', files: { 'composer.json': '{"name": "acme/not-picked"}' } });
    githubApp.onInstallPage({
      setupUrl: `${origin}/code-hosts/github-app/setup`,
      accountLogin: 'acme',
      repos: [widget],
    });
  });

  it('installs the GitHub App from Code hosts and lists the connection with what it may access', async () => {
    const { page, origin } = dashboard;
    await openFromAccountMenu(page, origin, 'Code hosts', '/code-hosts');
    await page.getByTestId('no-connections').waitFor();

    await page.getByTestId('install-github-app').click();
    await page.waitForURL((url) => url.pathname === '/code-hosts/github-app/setup');
    await page.getByTestId('github-app-success').waitFor();
    expect(await page.getByTestId('github-app-success').textContent()).toContain('is connected');

    await page.getByRole('link', { name: 'Back to Code hosts' }).click();
    const row = page.getByTestId('connection');
    await row.waitFor();
    const text = await row.textContent();
    expect(text).toContain(`acme on ${new URL(github.webUrl).host}`);
    expect(text).toContain('GitHub App');
    expect(text).toContain('Contents read, Metadata read');
  });

  it('lists the App’s repositories in Add Package, only those picked on GitHub', async () => {
    const { page, origin } = dashboard;
    await page.goto(`${origin}/management?action=add-package`);
    const dialog = page.getByRole('dialog', { name: 'Add New Package' });
    await dialog.waitFor();
    const group = dialog.getByTestId('repository-group');
    await group.getByText(`acme on ${new URL(github.webUrl).host}`).waitFor();
    const options = dialog.getByTestId('repository-option');
    await expect.poll(() => options.count()).toBe(1);
    expect(await options.first().textContent()).toContain('acme/widget');
    await page.keyboard.press('Escape');
  });

  it('removes the connection after asking', async () => {
    const { page, origin } = dashboard;
    await page.goto(`${origin}/code-hosts`);
    await page.getByRole('button', { name: /^Remove acme on/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove Connection' });
    await confirm.getByText('No package uses it.').waitFor();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await page.getByTestId('no-connections').waitFor();
    expect(await page.getByTestId('connection').count()).toBe(0);
  });
});

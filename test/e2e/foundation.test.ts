import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrPromoteAdmin } from '../../src/server/features/users/users.service.js';
import { type FakeGitHub, startFakeGitHub } from '../fakes/github.js';
import { findLink, readOutbox } from '../support/outbox.js';
import { testAppAroundTests } from '../support/test-app.js';
import { launchBrowser, type TestBrowser } from './support/browser.js';

let github: FakeGitHub;
beforeAll(async () => {
  github = await startFakeGitHub();
});
afterAll(async () => {
  await github?.close();
});

describe('the foundation in a real browser', () => {
  const started = testAppAroundTests(() => ({ env: github.env() }));
  let browser: TestBrowser;
  let context: BrowserContext;
  let page: Page;
  let origin: string;

  beforeAll(async () => {
    // The browser uses the public URL so that cookies set before and after the OAuth round trip match.
    origin = started.app.ctx.config.publicUrl;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  async function freshPage(): Promise<Page> {
    await context?.close();
    context = await browser.newContext();
    page = await context.newPage();
    return page;
  }

  it('shows the four default plans sorted by sortOrder, with their badges', async () => {
    await freshPage();
    await page.goto(`${origin}/`);
    const cards = page.getByTestId('plan-card');
    await expect.poll(() => cards.count()).toBe(4);
    const texts = await cards.allInnerTexts();
    expect(texts.map((text) => text.split('\n')[0]?.trim())).toEqual(['Starter', 'Growth', 'Scale', 'Enterprise']);
    expect(texts[0]).toContain('Most Popular');
    expect(texts[2]).toContain('Featured');
    expect(texts[1]).not.toMatch(/Most Popular|Featured/);
    expect(texts[0]).toContain('$19');
    expect(texts[0]).toContain('Start 14-Day Free Trial');
  });

  it('signs a seller in through GitHub, starts a trial from the chosen plan and shows the trial banner', async () => {
    github.addUser({ login: 'octo-seller', name: 'Octo Seller', email: 'octo@example.com' });
    github.setApprovingUser('octo-seller');
    await freshPage();
    await page.goto(`${origin}/`);
    await page.getByTestId('plan-card').nth(1).getByRole('link', { name: 'Start 14-Day Free Trial' }).click();
    await page.waitForURL(`${origin}/dashboard`);
    const growth = page.getByTestId('plan-card').nth(1);
    expect(await growth.textContent()).toContain('Growth');
    await growth.getByRole('button', { name: /Start 14-Day Free Trial/ }).click();
    const banner = page.getByTestId('trial-banner');
    await banner.waitFor({ timeout: 15_000 });
    expect(await banner.textContent()).toContain('14 days remaining');
    await expect.poll(() => page.getByText('octo-seller').first().isVisible()).toBe(true);
  });

  it('logs an admin in with the magic link from the outbox', async () => {
    await createOrPromoteAdmin(started.app.ctx, 'boss@example.com');
    await freshPage();
    await page.goto(`${origin}/admin/login`);
    await page.getByLabel('Admin Email Address').fill('boss@example.com');
    await page.getByRole('button', { name: 'Send Magic Link' }).click();
    await page.getByText('Enter Magic Link Token').waitFor();
    let link = '';
    await expect
      .poll(() => {
        const mail = readOutbox(started.app.dataDir).find((message) => message.to.includes('boss@example.com'));
        link = mail ? findLink(mail.body, /http:\/\/\S+\/admin\/login\?token=[\w-]+/) : '';
        return link;
      })
      .not.toBe('');
    await page.goto(link);
    await page.waitForURL(`${origin}/admin`);
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    for (const tab of ['Dashboard', 'Platform', 'Cache', 'Users', 'Settings']) {
      expect(await page.getByRole('tab', { name: tab }).isVisible()).toBe(true);
    }
  });

  it('keeps the chosen theme across a reload', async () => {
    await freshPage();
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${origin}/`);
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));
    expect(await isDark()).toBe(false);
    await page
      .getByRole('button', { name: /toggle theme/i })
      .first()
      .click();
    expect(await isDark()).toBe(true);
    await page.reload();
    expect(await isDark()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
  });

  it('shows Page Not Found with its actions for an unknown path', async () => {
    await freshPage();
    await page.goto(`${origin}/no/such/page`);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    for (const action of ['Go Home', 'Management', 'Dashboard', 'Documentation', 'Billing', 'Go Back']) {
      expect(
        await page
          .getByRole('link', { name: action })
          .or(page.getByRole('button', { name: action }))
          .count(),
      ).toBeGreaterThan(0);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { photograph } from './support/browser.js';
import { holderPortalAroundTests, onHolderCardInManagement } from './support/holder-portal.js';

// CI without a stored secret in the browser (issue 32 item 3): a license holder registers a trusted CI identity
// for GitHub Actions in the portal on the seller's host and reads the workflow steps naming that host; the seller
// sees the same identity from the holder's card on Management.

const HOLDER = 'ci-holder@example.com';
const SUBJECT = 'repo:holder-co/shop:ref:refs/heads/main';

const portal = holderPortalAroundTests(HOLDER);

describe('trusted CI identities', () => {
  it('lets the holder trust a GitHub Actions workflow in the portal and shows its steps', async () => {
    const { app, page, portalOrigin } = portal;
    await page.goto(`${portalOrigin}/portal`);
    const card = page.getByTestId('portal-ci-identities');
    await card.getByText('No CI identity is trusted yet.').waitFor();
    await card.getByLabel('Name').fill('Shop deploys');
    expect(await card.getByLabel('CI system').inputValue()).toBe('github');
    expect(await card.getByLabel('Audience').inputValue()).toBe(portalOrigin);
    await card.getByLabel('Subject').fill(SUBJECT);
    await card.getByRole('button', { name: 'Add CI identity' }).click();

    const identity = card.getByTestId('ci-identity');
    await identity.getByTestId('ci-identity-subject').getByText(SUBJECT).waitFor();
    const steps = (await identity.getByTestId('ci-steps-github').textContent()) ?? '';
    expect(steps).toContain('id-token: write');
    expect(steps).toContain(`$ACTIONS_ID_TOKEN_REQUEST_URL&audience=${encodeURIComponent(portalOrigin)}`);
    expect(steps).toContain(`${portalOrigin}/api/composer/oidc-token`);
    expect(steps).toContain(`composer config --global bearer.acme.composer.localhost:${app.port} "$COMPOSER_TOKEN"`);
    await identity.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(steps);
    await photograph(page, 'portal-ci-identities');
  });

  it('refuses a subject with a wildcard in the middle, saying why', async () => {
    const { page } = portal;
    const card = page.getByTestId('portal-ci-identities');
    await card.getByLabel('Name').fill('Everything');
    await card.getByLabel('Subject').fill('repo:*:ref:refs/heads/main');
    await card.getByRole('button', { name: 'Add CI identity' }).click();
    await card
      .getByRole('alert')
      .getByText(/at most one \* at the end/)
      .waitFor();
    expect(await card.getByTestId('ci-identity').count()).toBe(1);
  });

  it("shows the holder's identity to the seller on Management", async () => {
    const { portalOrigin } = portal;
    await onHolderCardInManagement(portal, HOLDER, async (management, holder) => {
      await holder.getByRole('button', { name: 'CI identities' }).click();
      const dialog = management.getByRole('dialog', { name: 'Trusted CI identities' });
      await dialog.getByTestId('ci-identity-subject').getByText(SUBJECT).waitFor();
      expect(await dialog.getByTestId('ci-steps-github').textContent()).toContain(
        `${portalOrigin}/api/composer/oidc-token`,
      );
    });
  });
});

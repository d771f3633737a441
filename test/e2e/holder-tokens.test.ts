import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { holderTokens } from '../../src/server/db/schema/index.js';
import { findCustomerByToken } from '../../src/server/features/licenses/grants.service.js';
import { HOUR_MS } from '../../src/server/lib/clock.js';
import { sha256Hex } from '../../src/server/lib/crypto.js';
import { isWellFormedHolderToken } from '../../src/server/lib/holder-token-format.js';
import { photograph } from './support/browser.js';
import { holderPortalAroundTests, onHolderCardInManagement } from './support/holder-portal.js';

// Named Composer tokens in the browser (issue 32): the holder creates one in the portal (shown once, copied), rotates
// it (the old one says when it stops working) and revokes the new one; the seller sees the holder's tokens on
// Management and revokes one there.

const HOLDER = 'tokens-holder@example.com';

const portal = holderPortalAroundTests(HOLDER);

describe('named Composer tokens', () => {
  it('lets the holder create a token shown once, copy it, rotate it and revoke the new one', async () => {
    const { app, page, portalOrigin } = portal;
    await page.goto(`${portalOrigin}/portal`);
    const card = page.getByTestId('portal-holder-tokens');
    await card.getByTestId('holder-token').filter({ hasText: 'Composer token' }).waitFor();
    await card.getByLabel('Name').fill('GitHub Actions');
    await card.getByLabel('Kind').selectOption('ci');
    await card.getByRole('button', { name: 'Create token' }).click();

    const shown = card.getByTestId('new-token-value');
    await shown.waitFor();
    const token = (await shown.textContent()) ?? '';
    expect(isWellFormedHolderToken(token)).toBe(true);
    expect(await findCustomerByToken(app.ctx, token)).toBeDefined();
    await card.getByTestId('new-holder-token').getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await card.getByRole('button', { name: 'Done' }).click();
    expect(await card.getByText(token).count()).toBe(0);
    await photograph(page, 'portal-holder-tokens');
    const snippet = (await page.getByTestId('snippet-auth-json').locator('pre').textContent()) ?? '';
    expect(JSON.parse(snippet)).toEqual({
      bearer: { [`acme.composer.localhost:${app.port}`]: 'YOUR_DEVELOPER_TOKEN' },
    });

    const entry = card.getByTestId('holder-token').filter({ hasText: 'GitHub Actions' });
    await entry.getByRole('button', { name: 'Rotate' }).click();
    // The holder chooses the overlap as API v1 takes it (0–168 hours, 24 unless changed).
    const rotateDialog = page.getByRole('dialog', { name: /^(Rotate|Revoke) “/ });
    const overlap = rotateDialog.getByLabel('Old token keeps working for (hours)');
    expect(await overlap.inputValue()).toBe('24');
    await overlap.fill('200');
    await rotateDialog.getByRole('button', { name: 'Rotate' }).click();
    await rotateDialog.getByText('Enter whole hours from 0 to 168.').waitFor();
    expect(await findCustomerByToken(app.ctx, token)).toBeDefined();
    await overlap.fill('2');
    const rotatedAt = app.clock.now().getTime();
    await rotateDialog.getByRole('button', { name: 'Rotate' }).click();
    const rotated = (await card.getByTestId('new-token-value').textContent()) ?? '';
    expect(rotated).not.toBe(token);
    const [oldRow] = await app.ctx.db
      .select()
      .from(holderTokens)
      .where(eq(holderTokens.tokenHash, sha256Hex(token)));
    expect(oldRow?.expiresAt).toEqual(new Date(rotatedAt + 2 * HOUR_MS));
    const old = card.getByTestId('holder-token').filter({ hasText: 'GitHub Actions' }).filter({ hasText: 'Rotated' });
    await old
      .getByTestId('holder-token-expiry')
      .getByText(/^Stops working at /)
      .waitFor();
    expect(await findCustomerByToken(app.ctx, token)).toBeDefined();
    expect(await findCustomerByToken(app.ctx, rotated)).toBeDefined();

    const fresh = card.getByTestId('holder-token').filter({ hasText: 'GitHub Actions' }).filter({ hasText: 'Active' });
    await fresh.getByRole('button', { name: 'Revoke' }).click();
    await page
      .getByRole('dialog', { name: /^(Rotate|Revoke) “/ })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await card.getByTestId('holder-token').filter({ hasText: 'Revoked' }).waitFor();
    expect(await findCustomerByToken(app.ctx, rotated)).toBeUndefined();
  });

  it("shows the holder's tokens to the seller on Management, who revokes one", async () => {
    await onHolderCardInManagement(portal, HOLDER, async (management, holder) => {
      await holder.getByRole('button', { name: 'Tokens' }).click();
      const dialog = management.getByRole('dialog', { name: 'Composer tokens' });
      const first = dialog.getByTestId('holder-token').filter({ hasText: 'Composer token' });
      await first.waitFor();
      expect(await dialog.getByRole('button', { name: 'Create token' }).count()).toBe(0);
      await first.getByRole('button', { name: 'Revoke' }).click();
      await management
        .getByRole('dialog', { name: /^(Rotate|Revoke) “/ })
        .getByRole('button', { name: 'Revoke' })
        .click();
      await first.getByTestId('holder-token-state').getByText('Revoked').waitFor();
    });
  });
});

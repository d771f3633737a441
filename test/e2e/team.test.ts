import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { findLink, readOutbox } from '../support/outbox.js';
import { sellerPageAroundTests } from './support/seller-page.js';

// Issue 33 in a real browser: an owner invites a developer and a support member from the Team page, each accepts from
// the e-mail's link and sees what their role allows, and the owner changes a role and removes a member, whose next
// request finds them signed out.

const DEVELOPER = 'dev@example.com';
const SUPPORT = 'help@example.com';

describe('a seller team in a real browser', () => {
  const invitees: { context: BrowserContext; page: Page }[] = [];

  const dashboard = sellerPageAroundTests({ seller: { slug: 'acme', githubUsername: 'acme' }, onTrial: true });

  /** The link of the newest invitation e-mail to `email`. */
  function invitationLink(email: string): string {
    const { app } = dashboard;
    const mail = readOutbox(app.dataDir).findLast((candidate) => candidate.to.includes(email));
    if (!mail) throw new Error(`no invitation e-mail to ${email}`);
    return findLink(mail.body, /http:\/\/[^\s"<>]+\/team\/join\?token=[A-Za-z0-9_%-]+/);
  }

  async function invite(email: string, role: RegExp) {
    const { page: ownerPage } = dashboard;
    await ownerPage.getByRole('button', { name: 'Invite Member' }).click();
    const dialog = ownerPage.getByRole('dialog', { name: 'Invite Member' });
    await dialog.getByLabel('E-mail address').fill(email);
    await dialog.getByRole('radio', { name: role }).check();
    await dialog.getByRole('button', { name: 'Send Invitation' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await ownerPage.getByTestId(`team-invitation-${email}`).waitFor();
  }

  /** Opens the e-mail's link in a fresh, signed-out browser and accepts: the new member's page, on the Dashboard. */
  async function accept(email: string, roleLabel: string): Promise<Page> {
    const { browser, origin } = dashboard;
    const context = await browser.newContext();
    const page = await context.newPage();
    invitees.push({ context, page });
    await page.goto(invitationLink(email));
    await page.getByTestId('join-organization').waitFor();
    expect(await page.getByTestId('join-role').textContent()).toBe(roleLabel);
    await page.getByText(email, { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Accept Invitation' }).click();
    await page.waitForURL(`${origin}/dashboard`);
    return page;
  }

  it('invites a developer and a support member; each joins and sees what the role allows', async () => {
    const { app, origin, seller: owner, page: ownerPage } = dashboard;
    await ownerPage.goto(`${origin}/team`);
    await ownerPage.getByRole('heading', { name: 'Team', exact: true }).waitFor();
    expect(await ownerPage.getByTestId('team-member-count').textContent()).toMatch(/^1 (member|of \d+ members)$/);

    // The contract's schema checks the address before anything is sent.
    await ownerPage.getByRole('button', { name: 'Invite Member' }).click();
    const dialog = ownerPage.getByRole('dialog', { name: 'Invite Member' });
    await dialog.getByLabel('E-mail address').fill('not an address');
    await dialog.getByRole('button', { name: 'Send Invitation' }).click();
    await dialog.getByText('Enter a valid e-mail address').waitFor();
    // The server's refusal shows in the dialog: one's own address.
    await dialog.getByLabel('E-mail address').fill(owner.user.email!);
    await dialog.getByRole('button', { name: 'Send Invitation' }).click();
    await dialog.getByRole('alert').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await invite(DEVELOPER, /^Developer/);
    await invite(SUPPORT, /^Support/);
    expect(readOutbox(app.dataDir).filter((mail) => mail.to.includes(DEVELOPER))).toHaveLength(1);

    const developer = await accept(DEVELOPER, 'Developer');
    const nav = developer.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'API Tokens' }).waitFor();
    await developer.goto(`${origin}/management`);
    const addPackage = developer.getByRole('button', { name: 'Add Package' }).first();
    await addPackage.waitFor();
    expect(await addPackage.isEnabled()).toBe(true);
    await developer.goto(`${origin}/billing`);
    await developer.getByText('Your role (developer) cannot manage the plan and billing.').waitFor();

    const support = await accept(SUPPORT, 'Support');
    const supportNav = support.getByRole('navigation', { name: 'Main' });
    await supportNav.getByRole('link', { name: 'Management' }).waitFor();
    expect(await supportNav.getByRole('link', { name: 'Analytics' }).count()).toBe(0);
    expect(await supportNav.getByRole('link', { name: 'API Tokens' }).count()).toBe(0);
    await support.goto(`${origin}/management`);
    const disabledAdd = support.getByRole('button', { name: 'Add Package' }).first();
    await disabledAdd.waitFor();
    expect(await disabledAdd.isDisabled()).toBe(true);
    expect(await disabledAdd.getAttribute('title')).toBe('Your role (support) cannot change packages.');
    // Holders and licenses are support's work.
    await support.goto(`${origin}/management?tab=access`);
    await support.getByText('No license holders yet').waitFor();
    await support.goto(`${origin}/analytics`);
    await support.getByText('Your role (support) cannot see analytics.').waitFor();

    // Their account menu lists the organisation with their role, and links to Team, where they cannot invite.
    await support.getByRole('button', { name: /^Account menu for/ }).click();
    await support.getByRole('menuitem', { name: /Support/ }).waitFor();
    await support.getByRole('menuitem', { name: 'Team' }).click();
    await support.getByTestId(`team-member-${SUPPORT}`).waitFor();
    const supportInvite = support.getByRole('button', { name: 'Invite Member' });
    expect(await supportInvite.isDisabled()).toBe(true);
    expect(await supportInvite.getAttribute('title')).toBe('Your role (support) cannot manage the team.');

    await ownerPage.reload();
    await ownerPage.getByTestId(`team-member-${DEVELOPER}`).waitFor();
    await ownerPage.getByTestId(`team-member-${SUPPORT}`).waitFor();
    expect(await ownerPage.getByText('No pending invitations.').count()).toBe(1);
    expect(await ownerPage.getByTestId('team-member-count').textContent()).toMatch(/^3 (members|of \d+ members)$/);
  });

  it('lets a member switch to their own account from the account menu and back', async () => {
    const { origin } = dashboard;
    const support = invitees[1]!.page;
    const supportNav = support.getByRole('navigation', { name: 'Main' });
    // Joining left their own account theirs: they switch to it, where they are the owner, and back.
    await support.getByRole('button', { name: /^Account menu for/ }).click();
    await support.getByRole('menuitem', { name: /Owner/ }).click();
    await support.waitForURL(`${origin}/dashboard`);
    await supportNav.getByRole('link', { name: 'Analytics' }).waitFor();
    await support.getByRole('button', { name: /^Account menu for/ }).click();
    await support.getByRole('menuitem', { name: /Support/ }).click();
    await support.getByText('Organisation Switched', { exact: true }).waitFor();
    await supportNav.getByRole('link', { name: 'Dashboard' }).waitFor();
    expect(await supportNav.getByRole('link', { name: 'Analytics' }).count()).toBe(0);
  });

  it('changes a role and removes a member, whose next request finds them signed out', async () => {
    const { origin, seller: owner, page: ownerPage } = dashboard;
    const [developer, support] = invitees.map((invitee) => invitee.page);
    await ownerPage.getByLabel(`Role of ${SUPPORT}`).selectOption('viewer');
    await ownerPage.getByText(`${SUPPORT} is now viewer.`, { exact: true }).waitFor();
    await support!.goto(`${origin}/management?tab=access`);
    await support!.getByText('Your role (viewer) cannot see customers and licenses.').waitFor();

    await ownerPage.getByRole('button', { name: `Remove ${DEVELOPER}` }).click();
    await ownerPage.getByRole('dialog', { name: 'Remove Member' }).getByRole('button', { name: 'Remove' }).click();
    await ownerPage.getByText(`${DEVELOPER} is signed out of this organisation.`, { exact: true }).waitFor();
    // The toast may come before the list is read again: wait for the row to leave.
    await ownerPage.getByTestId(`team-member-${DEVELOPER}`).waitFor({ state: 'detached' });
    // The founding owner cannot be removed.
    expect(await ownerPage.getByRole('button', { name: `Remove ${owner.user.email}` }).isDisabled()).toBe(true);

    await developer!.goto(`${origin}/management`);
    await developer!.waitForURL(`${origin}/`);
    expect(await developer!.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
  });
});

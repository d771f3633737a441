import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestClient } from '../../../../test/support/http-client.js';
import { findLink, lastMailTo } from '../../../../test/support/outbox.js';
import { giveTrial } from '../../../../test/support/packages.js';
import { type SignedIn, signIn, signInAdmin, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import type { AuditEvent } from '../../../contract/api-v1.js';
import type { AuthUser } from '../../../contract/auth.js';
import type { CreatedApiToken } from '../../../contract/developer.js';
import type { ApiError } from '../../../contract/errors.js';
import type { PlanConfiguration } from '../../../contract/plans.js';
import type {
  InvitationPreview,
  Organizations,
  TeamInvitation,
  TeamInvitations,
  TeamMember,
  TeamMembers,
} from '../../../contract/team.js';
import { DAY_MS } from '../../lib/clock.js';

// Issue 33: an owner invites people by e-mail, each joins from the link and works with their role; what the team or
// the plan does not allow is refused with a clear message and nothing written; removing a member ends their session
// and tokens at their next request; the audit trail names who did what.

const MINUTE_MS = 60_000;

describe('seller teams', () => {
  let app: TestApp;
  let owner: SignedIn;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(async () => {
    owner = await signInSeller(app, { githubUsername: `acme-${Math.random().toString(36).slice(2, 8)}` });
    await giveTrial(app, owner.user.id, 'starter');
  });

  /** The link of the newest invitation e-mail to `email`. */
  function invitationLink(email: string): string {
    const mail = lastMailTo(app.dataDir, email);
    return findLink(mail.body, /http:\/\/localhost:\d+\/team\/join\?token=[A-Za-z0-9_%-]+/);
  }
  const tokenOf = (link: string) => decodeURIComponent(new URL(link).searchParams.get('token')!);

  async function invite(email: string, role: string, by: TestClient = owner.client): Promise<Response> {
    return by.post('/api/team/invitations', { email, role });
  }

  /** Invites `email` with `role` and accepts from a fresh browser: the joined member's client. */
  async function join(email: string, role: string): Promise<TestClient> {
    expect((await invite(email, role)).status).toBe(201);
    const browser = new TestClient(app.baseUrl);
    const accepted = await browser.post('/api/team/invitations/accept', { token: tokenOf(invitationLink(email)) });
    expect(accepted.status).toBe(200);
    return browser;
  }

  const members = async (client: TestClient = owner.client) =>
    (await (await client.get('/api/team/members')).json()) as TeamMembers;
  const pending = async () =>
    ((await (await owner.client.get('/api/team/invitations')).json()) as TeamInvitations).invitations;
  const me = async (client: TestClient) => (await (await client.get('/api/auth/user')).json()) as AuthUser | null;

  it('invites by a branded e-mail whose link signs the invitee in, working in the organisation with their role', async () => {
    const email = `dev-${Date.now()}@example.com`;
    const created = await invite(email, 'developer');
    expect(created.status).toBe(201);
    const invitation = (await created.json()) as TeamInvitation;
    expect(invitation).toMatchObject({ email, role: 'developer', invitedByEmail: owner.user.email });
    expect(new Date(invitation.expiresAt).getTime() - app.clock.now().getTime()).toBe(7 * DAY_MS);
    expect(await pending()).toHaveLength(1);

    const link = invitationLink(email);
    expect(link.startsWith(app.ctx.config.publicUrl)).toBe(true);
    const mail = lastMailTo(app.dataDir, email);
    expect(mail.subject).toContain('invited you to join');

    const browser = new TestClient(app.baseUrl);
    const preview = await browser.get(`/api/team/invitations/preview?token=${encodeURIComponent(tokenOf(link))}`);
    expect((await preview.json()) as InvitationPreview).toMatchObject({ email, role: 'developer' });
    expect(await pending()).toHaveLength(1); // a preview changes nothing

    const accepted = await browser.post('/api/team/invitations/accept', { token: tokenOf(link) });
    expect(accepted.status).toBe(200);
    const joined = await me(browser);
    expect(joined?.id).toBe(owner.user.id);
    expect(joined?.organization).toMatchObject({ id: owner.user.id, role: 'developer' });
    expect(joined?.permissions).toContain('packages:write');
    expect(joined?.permissions).not.toContain('team:manage');
    expect((await browser.get('/api/team/invitations')).status).toBe(403);

    const team = await members();
    expect(team.members.map((member) => [member.email, member.role, member.isFounder])).toEqual([
      [owner.user.email, 'owner', true],
      [email, 'developer', false],
    ]);
    expect(await pending()).toEqual([]);

    const replayed = await new TestClient(app.baseUrl).post('/api/team/invitations/accept', { token: tokenOf(link) });
    expect(replayed.status).toBe(400);
    expect(((await replayed.json()) as ApiError).message).toBe('This invitation was already used.');

    // Their own account is theirs too: they switch between the two.
    const organizations = ((await (await browser.get('/api/organizations')).json()) as Organizations).organizations;
    expect(organizations.map((organization) => [organization.role, organization.isCurrent])).toEqual([
      ['owner', false],
      ['developer', true],
    ]);
    const own = organizations[0]!;
    expect((await browser.post('/api/organizations/current', { organizationId: own.id })).status).toBe(200);
    expect((await me(browser))?.organization).toMatchObject({ id: own.id, role: 'owner' });
    const stranger = await signInSeller(app);
    const refused = await browser.post('/api/organizations/current', { organizationId: stranger.user.id });
    expect(refused.status).toBe(404);
  });

  it('refuses, writing nothing, what the team or the plan does not allow', async () => {
    const developerEmail = `dev-${Date.now()}@example.com`;
    const developer = await join(developerEmail, 'developer');
    const admin = await join(`admin-${Date.now()}@example.com`, 'admin');
    expect((await invite('waiting@example.com', 'viewer')).status).toBe(201);
    const before = { members: (await members()).members.length, pending: (await pending()).length };

    const refusals: [Response, number, string][] = [
      [await invite(owner.user.email!, 'viewer'), 400, 'You cannot invite your own address: you are already a member.'],
      [
        await invite(developerEmail.toUpperCase(), 'viewer'),
        409,
        `${developerEmail} is already a member of this organisation.`,
      ],
      [
        await invite('waiting@example.com', 'support'),
        409,
        'An invitation to waiting@example.com is already waiting to be accepted.',
      ],
      [
        await invite('new@example.com', 'superuser'),
        400,
        'Role must be one of owner, admin, developer, support, viewer',
      ],
      [
        await invite('new@example.com', 'owner', admin),
        403,
        'Only an owner can grant the owner role or change an owner’s role.',
      ],
      [await invite('new@example.com', 'viewer', developer), 403, 'Your role (developer) cannot manage the team.'],
    ];
    for (const [response, status, message] of refusals) {
      const body = (await response.json()) as ApiError;
      expect([response.status, body.message]).toEqual([status, expect.stringContaining(message)]);
    }
    expect((await invite('waiting@example.com', 'support').then((r) => r.json())) as ApiError).toMatchObject({
      suggestion: 'Resend the pending invitation instead.',
    });

    // The plan's limit counts members and pending invitations (4 now): the admin sets 4 on the seller's tier.
    const { client: platformAdmin } = await signInAdmin(app);
    const configuration = (await (
      await platformAdmin.get('/api/admin/tier-configuration')
    ).json()) as PlanConfiguration;
    const tiers = configuration.tiers.map((tier) => (tier.id === 'starter' ? { ...tier, maxTeamMembers: 4 } : tier));
    expect((await platformAdmin.put('/api/admin/tier-configuration', { ...configuration, tiers })).status).toBe(200);
    try {
      const beyond = await invite('fifth@example.com', 'viewer');
      expect(beyond.status).toBe(403);
      expect(((await beyond.json()) as ApiError).message).toBe('Your Starter plan allows 4 team members.');
      expect((await members()).limit).toBe(4);
    } finally {
      const unlimited = configuration.tiers.map((tier) =>
        tier.id === 'starter' ? { ...tier, maxTeamMembers: -1 } : tier,
      );
      await platformAdmin.put('/api/admin/tier-configuration', { ...configuration, tiers: unlimited });
    }
    expect({ members: (await members()).members.length, pending: (await pending()).length }).toEqual(before);
  });

  it('refuses a withdrawn, expired or replaced link, and a link opened by another signed-in person', async () => {
    const withdrawn = (await (await invite('withdrawn@example.com', 'viewer')).json()) as TeamInvitation;
    const withdrawnLink = invitationLink('withdrawn@example.com');
    expect((await owner.client.delete(`/api/team/invitations/${withdrawn.id}`)).status).toBe(204);
    const expired = await invite('expired@example.com', 'viewer');
    expect(expired.status).toBe(201);
    const expiredLink = invitationLink('expired@example.com');
    const resent = (await (await invite('resent@example.com', 'viewer')).json()) as TeamInvitation;
    const firstLink = invitationLink('resent@example.com');
    const tooSoon = await owner.client.post(`/api/team/invitations/${resent.id}/resend`);
    expect(tooSoon.status).toBe(429);
    app.clock.advance(2 * MINUTE_MS);
    expect((await owner.client.post(`/api/team/invitations/${resent.id}/resend`)).status).toBe(200);
    const secondLink = invitationLink('resent@example.com');
    expect(secondLink).not.toBe(firstLink);
    app.clock.advance(7 * DAY_MS - MINUTE_MS);
    owner = await signIn(app, { user: owner.user }); // the week outlived the owner's idle session

    const accept = (link: string, client = new TestClient(app.baseUrl)) =>
      client.post('/api/team/invitations/accept', { token: tokenOf(link) });
    const answers = async (response: Promise<Response>) => {
      const answer = await response;
      return [answer.status, ((await answer.json()) as ApiError).message];
    };
    expect(await answers(accept(withdrawnLink))).toEqual([400, 'This invitation was withdrawn.']);
    expect(await answers(accept(expiredLink))).toEqual([400, 'This invitation has expired.']);
    expect(await answers(accept(firstLink))).toEqual([400, 'This invitation link is not valid.']);
    const other = await signInSeller(app);
    expect(await answers(accept(secondLink, other.client))).toEqual([
      403,
      'This invitation was sent to resent@example.com. Sign out and open the link again.',
    ]);
    expect((await members()).members).toHaveLength(1);
    expect((await accept(secondLink)).status).toBe(200);
  });

  it('keeps an owner: the last one is neither demoted nor removed, the founder never removed, owner only by owners', async () => {
    const team = await members();
    const founder = team.members[0]!;
    const demoted = await owner.client.request('PATCH', `/api/team/members/${founder.id}`, { body: { role: 'admin' } });
    expect(demoted.status).toBe(409);
    expect(((await demoted.json()) as ApiError).message).toBe('An organisation needs at least one owner.');

    const adminEmail = `admin-${Date.now()}@example.com`;
    const admin = await join(adminEmail, 'admin');
    const removeFounder = await admin.delete(`/api/team/members/${founder.id}`);
    expect(removeFounder.status).toBe(403);
    const promote = await admin.request('PATCH', `/api/team/members/${founder.id}`, { body: { role: 'viewer' } });
    expect(((await promote.json()) as ApiError).message).toBe(
      'Only an owner can grant the owner role or change an owner’s role.',
    );

    // A transfer of ownership: the admin becomes owner, then the founder may step down (and still not be removed).
    const adminMember = (await members()).members.find((member) => member.email === adminEmail)!;
    const promoted = await owner.client.request('PATCH', `/api/team/members/${adminMember.id}`, {
      body: { role: 'owner' },
    });
    expect(((await promoted.json()) as TeamMember).role).toBe('owner');
    const stepDown = await admin.request('PATCH', `/api/team/members/${founder.id}`, { body: { role: 'viewer' } });
    expect(stepDown.status).toBe(200);
    expect((await me(owner.client))?.organization?.role).toBe('viewer');
    const viewerFounder = (await members(admin)).members.find((member) => member.isFounder)!;
    expect((await admin.delete(`/api/team/members/${viewerFounder.id}`)).status).toBe(403);

    // An admin of the platform impersonating the account acts as its owner, whatever the founder's role now.
    const { client: platformAdmin } = await signInAdmin(app);
    expect((await platformAdmin.post('/api/admin/impersonate', { userId: owner.user.id })).status).toBe(200);
    expect((await me(platformAdmin))?.organization?.role).toBe('owner');
    expect((await platformAdmin.get('/api/platform-subscription/billing')).status).toBe(200);
  });

  it('ends a removed member’s session and API tokens at their next request, and names each member in the audit list', async () => {
    const email = `support-${Date.now()}@example.com`;
    const support = await join(email, 'support');
    const supportLabel = email;

    // A member's token never does more than their role.
    const refused = await support.post('/api/developer/tokens', { name: 'all', permissions: ['customers:read'] });
    expect(((await refused.json()) as ApiError).message).toBe('Your role (support) cannot change API tokens.');
    const developer = await join(`dev-${Date.now()}@example.com`, 'developer');
    const devToken = (await (
      await developer.post('/api/developer/tokens', { name: 'ci', permissions: ['*'] })
    ).json()) as CreatedApiToken;
    const api = (path: string, token: string) =>
      fetch(new URL(path, app.baseUrl), { headers: { authorization: `Bearer ${token}` } });
    expect((await api('/api/v1/customers', devToken.token)).status).toBe(200);

    // Demoted to viewer, the developer's full-access token reads analytics only.
    const devMember = (await members()).members.find((member) => member.role === 'developer')!;
    await owner.client.request('PATCH', `/api/team/members/${devMember.id}`, { body: { role: 'viewer' } });
    expect((await api('/api/v1/analytics', devToken.token)).status).toBe(200);
    expect((await api('/api/v1/customers', devToken.token)).status).toBe(403);
    await owner.client.request('PATCH', `/api/team/members/${devMember.id}`, { body: { role: 'developer' } });

    const supportMember = (await members()).members.find((member) => member.email === email)!;
    expect((await owner.client.delete(`/api/team/members/${supportMember.id}`)).status).toBe(204);
    expect(await me(support)).toBeNull();
    expect((await support.get('/api/customers')).status).toBe(401);

    expect((await owner.client.delete(`/api/team/members/${devMember.id}`)).status).toBe(204);
    const revoked = await api('/api/v1/analytics', devToken.token);
    expect(revoked.status).toBe(401);
    expect(await developer.get('/api/auth/user').then((r) => r.json())).toBeNull();

    const ownerToken = (await (
      await owner.client.post('/api/developer/tokens', { name: 'audit', permissions: ['tokens:read'] })
    ).json()) as CreatedApiToken;
    const events = (
      (await (await api('/api/v1/audit-events?limit=50', ownerToken.token)).json()) as { data: AuditEvent[] }
    ).data;
    const byAction = (action: string) => events.filter((event) => event.action === action);
    const ownerLabel = owner.user.email; // no display name: the e-mail address names them
    expect(byAction('member.invited').every((event) => event.actor.member?.label === ownerLabel)).toBe(true);
    expect(byAction('member.joined').map((event) => event.actor.member?.label)).toContain(supportLabel);
    expect(byAction('api_token.created').map((event) => event.actor.member?.id)).toContain(devMember.userId);
    // Both removals happened at the same clock time: their order in the list is not theirs to keep.
    expect(
      byAction('member.removed')
        .map((event) => String(event.details.email))
        .sort(),
    ).toEqual([devMember.email!, email].sort());
    expect(byAction('member.role_changed')).toHaveLength(2);
  });
});

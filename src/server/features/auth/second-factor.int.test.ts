import { eq } from 'drizzle-orm';
import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../../../../test/support/http-client.js';
import { findLink, lastMailTo } from '../../../../test/support/outbox.js';
import { giveTrial } from '../../../../test/support/packages.js';
import { createTestUser, signIn, signInAdmin, signInSeller, type TestUser } from '../../../../test/support/sessions.js';
import { SoftwareAuthenticator } from '../../../../test/support/software-authenticator.js';
import { startTestApp, type TestApp, testAppAroundTests } from '../../../../test/support/test-app.js';
import type { AuthUser } from '../../../contract/auth.js';
import type { ApiError } from '../../../contract/errors.js';
import type { SecurityOverview, SignedInSession, TotpEnrolment } from '../../../contract/security.js';
import { sessions, userPasskeys, userTotpSecrets } from '../../db/schema/index.js';
import { CODE_GUESSES_PER_ACCOUNT } from './second-factor.routes.js';

// Strong sign-in against the real app (issue 33 item 5): passkeys verified by @simplewebauthn/server against a
// software authenticator, authenticator-app codes computed with the same library the server uses, recovery codes,
// the pending second step after an e-mailed link, and every refusal writing nothing.

type Options = { challenge: string; user: { id: string } };

describe('strong sign-in', () => {
  let app: TestApp;
  let origin: string;
  let rpId: string;
  beforeAll(async () => {
    app = await startTestApp();
    origin = new URL(app.ctx.config.publicUrl).origin;
    rpId = new URL(app.ctx.config.publicUrl).hostname;
  });
  afterAll(async () => {
    await app.close();
  });

  const passkeysOf = (user: TestUser) => app.ctx.db.select().from(userPasskeys).where(eq(userPasskeys.userId, user.id));

  async function registerPasskey(client: TestClient, authenticator: SoftwareAuthenticator) {
    const options = (await (await client.post('/api/auth/passkeys/registration-options')).json()) as Options;
    return client.post('/api/auth/passkeys/registration', {
      response: authenticator.register(options),
      name: 'Laptop',
    });
  }

  async function sellerLinkSignIn(email: string): Promise<TestClient> {
    const client = new TestClient(app.baseUrl);
    await client.post('/api/auth/magic-link', { email, userType: 'seller' });
    const mail = lastMailTo(app.dataDir, email);
    await client.get(findLink(mail.body, /http\S+\/api\/auth\/magic-link\/callback\?token=\S+/));
    return client;
  }

  const me = async (client: TestClient) => (await (await client.get('/api/auth/user')).json()) as AuthUser | null;

  it('registers a passkey with ten recovery codes, and signs in with it alone', async () => {
    const { client, user } = await signInSeller(app);
    const authenticator = new SoftwareAuthenticator(rpId, origin);
    const registered = await registerPasskey(client, authenticator);
    expect(registered.status).toBe(200);
    const body = (await registered.json()) as { passkey: { name: string }; recoveryCodes: string[] };
    expect(body.passkey.name).toBe('Laptop');
    expect(body.recoveryCodes).toHaveLength(10);
    expect((await passkeysOf(user)).map((row) => row.name)).toEqual(['Laptop']);

    const browser = new TestClient(app.baseUrl);
    const options = (await (await browser.post('/api/auth/passkeys/authentication-options')).json()) as Options;
    const signedIn = await browser.post('/api/auth/passkeys/authentication', {
      response: authenticator.authenticate(options),
    });
    expect(signedIn.status).toBe(200);
    const current = await me(browser);
    expect(current?.id).toBe(user.id);
    expect(current?.secondFactor).toBeUndefined();
    const list = (await (await browser.get('/api/auth/sessions')).json()) as SignedInSession[];
    const mine = list.find((session) => session.current);
    expect(mine).toMatchObject({ signInMethod: 'passkey', network: '127.0.0.0/24' });
  });

  it('refuses a registration with a wrong origin, replayed, expired, or answering another person’s prompt', async () => {
    const { client, user } = await signInSeller(app);
    const authenticator = new SoftwareAuthenticator(rpId, origin);
    const ask = async (who: TestClient) =>
      (await (await who.post('/api/auth/passkeys/registration-options')).json()) as Options;

    const wrongOrigin = await client.post('/api/auth/passkeys/registration', {
      response: authenticator.register(await ask(client), { origin: 'https://evil.example' }),
    });
    expect(wrongOrigin.status).toBe(400);

    const response = authenticator.register(await ask(client));
    expect((await client.post('/api/auth/passkeys/registration', { response })).status).toBe(200);
    const replayed = await client.post('/api/auth/passkeys/registration', { response });
    expect(replayed.status).toBe(400);
    expect(((await replayed.json()) as ApiError).message).toContain('unknown, used, expired or not yours');

    const late = await ask(client);
    app.clock.advance(6 * 60_000);
    expect(
      (await client.post('/api/auth/passkeys/registration', { response: authenticator.register(late) })).status,
    ).toBe(400);

    const other = await signInSeller(app);
    const othersPrompt = await ask(other.client);
    const stolen = await client.post('/api/auth/passkeys/registration', {
      response: authenticator.register(othersPrompt),
    });
    expect(stolen.status).toBe(400);
    expect(await passkeysOf(user)).toHaveLength(1);
    expect(await passkeysOf(other.user)).toHaveLength(0);
  });

  it('refuses a passkey sign-in with a wrong origin, a replayed or expired prompt', async () => {
    const { client } = await signInSeller(app);
    const authenticator = new SoftwareAuthenticator(rpId, origin);
    expect((await registerPasskey(client, authenticator)).status).toBe(200);
    const browser = new TestClient(app.baseUrl);
    const ask = async () => (await (await browser.post('/api/auth/passkeys/authentication-options')).json()) as Options;
    const attempt = (response: unknown) => browser.post('/api/auth/passkeys/authentication', { response });

    expect((await attempt(authenticator.authenticate(await ask(), { origin: 'https://evil.example' }))).status).toBe(
      401,
    );
    const late = await ask();
    app.clock.advance(6 * 60_000);
    expect((await attempt(authenticator.authenticate(late))).status).toBe(401);
    const once = authenticator.authenticate(await ask());
    expect((await attempt(once)).status).toBe(200);
    const fresh = new TestClient(app.baseUrl);
    expect((await fresh.post('/api/auth/passkeys/authentication', { response: once })).status).toBe(401);
    expect(await me(fresh)).toBeNull();
  });

  it('asks a person with a passkey for it after an e-mailed link, and refuses another person’s passkey', async () => {
    const owner = await createTestUser(app, { email: 'owner-pk@example.com' });
    const ownerSession = await signInSellerAs(owner);
    const ownerKey = new SoftwareAuthenticator(rpId, origin);
    expect((await registerPasskey(ownerSession, ownerKey)).status).toBe(200);
    const stranger = await signInSeller(app);
    const strangerKey = new SoftwareAuthenticator(rpId, origin);
    expect((await registerPasskey(stranger.client, strangerKey)).status).toBe(200);

    const client = await sellerLinkSignIn('owner-pk@example.com');
    const pending = await me(client);
    expect(pending?.secondFactor).toEqual({
      pending: true,
      enrolmentRequired: false,
      methods: ['passkey', 'recovery_code'],
    });
    // Nothing else is reachable yet: the session counts as signed out elsewhere.
    expect((await client.get('/api/repositories')).status).toBe(401);
    expect((await client.get('/api/auth/security')).status).toBe(401);

    const options = (await (await client.post('/api/auth/passkeys/authentication-options')).json()) as Options;
    const wrongPerson = await client.post('/api/auth/passkeys/authentication', {
      response: strangerKey.authenticate(options),
    });
    expect(wrongPerson.status).toBe(401);
    expect((await me(client))?.secondFactor?.pending).toBe(true);

    const again = (await (await client.post('/api/auth/passkeys/authentication-options')).json()) as Options;
    const passed = await client.post('/api/auth/passkeys/authentication', { response: ownerKey.authenticate(again) });
    expect(passed.status).toBe(200);
    expect((await me(client))?.secondFactor).toBeUndefined();
    expect((await client.get('/api/auth/security')).status).toBe(200);
  });

  it('asks a person with a passkey for it after accepting a team invitation signed out', async () => {
    const invitee = await createTestUser(app, { email: 'invitee-pk@example.com' });
    const inviteeKey = new SoftwareAuthenticator(rpId, origin);
    expect((await registerPasskey(await signInSellerAs(invitee), inviteeKey)).status).toBe(200);
    const team = await signInSeller(app);
    await giveTrial(app, team.user.id, 'starter');
    expect((await team.client.post('/api/team/invitations', { email: invitee.email, role: 'developer' })).status).toBe(
      201,
    );
    const mail = lastMailTo(app.dataDir, 'invitee-pk@example.com');
    const link = findLink(mail.body, /http:\/\/localhost:\d+\/team\/join\?token=[A-Za-z0-9_%-]+/);
    const token = decodeURIComponent(new URL(link).searchParams.get('token')!);

    const browser = new TestClient(app.baseUrl);
    expect((await browser.post('/api/team/invitations/accept', { token })).status).toBe(200);
    // The link proves the address only, as an e-mailed sign-in link does: the passkey is still asked for.
    expect((await me(browser))?.secondFactor?.pending).toBe(true);
    expect((await browser.get('/api/team/members')).status).toBe(401);

    const options = (await (await browser.post('/api/auth/passkeys/authentication-options')).json()) as Options;
    const passed = await browser.post('/api/auth/passkeys/authentication', {
      response: inviteeKey.authenticate(options),
    });
    expect(passed.status).toBe(200);
    expect((await me(browser))?.organization?.id).toBe(team.user.id);
    expect((await browser.get('/api/team/members')).status).toBe(200);
  });

  async function signInSellerAs(user: TestUser): Promise<TestClient> {
    return (await signIn(app, { user })).client;
  }

  it('enrols an authenticator app, accepts each code once, and limits guesses per account', async () => {
    const user = await createTestUser(app, { email: 'totp@example.com' });
    const client = await signInSellerAs(user);
    const enrolment = (await (await client.post('/api/auth/totp/enrolment')).json()) as TotpEnrolment;
    expect(enrolment.uri).toMatch(/^otpauth:\/\/totp\/Packgate:totp%40example\.com\?/);
    expect(enrolment.qrCode.startsWith('data:image/svg+xml;base64,')).toBe(true);
    const [stored] = await app.ctx.db.select().from(userTotpSecrets).where(eq(userTotpSecrets.userId, user.id));
    expect(stored!.secretSealed).not.toContain(enrolment.secret);
    const totp = new TOTP({ secret: enrolment.secret, digits: 6, period: 30, algorithm: 'SHA1' });
    const code = () => totp.generate({ timestamp: app.clock.now().getTime() });

    const confirmed = await client.post('/api/auth/totp/enrolment/confirm', { code: code() });
    expect(confirmed.status).toBe(200);
    const { recoveryCodes } = (await confirmed.json()) as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);

    // A new sign-in by link: the code of the step just used is refused, the next step's accepted once.
    const second = await sellerLinkSignIn('totp@example.com');
    expect((await me(second))?.secondFactor?.methods).toEqual(['totp', 'recovery_code']);
    const replay = await second.post('/api/auth/totp/verify', { code: code() });
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as ApiError).message).toContain('already used');
    app.clock.advance(30_000);
    const fresh = code();
    expect((await second.post('/api/auth/totp/verify', { code: fresh })).status).toBe(200);
    expect((await me(second))?.secondFactor).toBeUndefined();

    const third = await sellerLinkSignIn('totp@example.com');
    expect((await third.post('/api/auth/totp/verify', { code: fresh })).status).toBe(400);

    // Guesses: limited for this account, while a recovery code still gets the owner in.
    for (let guess = 1; guess < CODE_GUESSES_PER_ACCOUNT; guess++) {
      await third.post('/api/auth/totp/verify', { code: '000000' });
    }
    const limited = await third.post('/api/auth/totp/verify', { code: '000000' });
    expect(limited.status).toBe(429);
    expect((await me(third))?.secondFactor?.pending).toBe(true);
    expect((await third.post('/api/auth/recovery-codes/verify', { code: recoveryCodes[0] })).status).toBe(200);
    expect((await me(third))?.secondFactor).toBeUndefined();

    // A recovery code works once.
    const fourth = await sellerLinkSignIn('totp@example.com');
    const reused = await fourth.post('/api/auth/recovery-codes/verify', { code: recoveryCodes[0] });
    expect(reused.status).toBe(400);
    expect((await me(fourth))?.secondFactor?.pending).toBe(true);
    const overview = (await (await third.get('/api/auth/security')).json()) as SecurityOverview;
    expect(overview).toMatchObject({ totpEnabled: true, recoveryCodesRemaining: 9 });
  });

  it('sends an owner required to have a second factor to enrol before anything else', async () => {
    const admin = await signInAdmin(app);
    const set = await admin.client.request('PUT', '/api/admin/platform-settings', {
      body: { key: 'require_second_factor_owners', value: 'true' },
    });
    expect(set.status).toBeLessThan(300);
    try {
      await createTestUser(app, { email: 'must-enrol@example.com' });
      const client = await sellerLinkSignIn('must-enrol@example.com');
      expect((await me(client))?.secondFactor).toEqual({ pending: false, enrolmentRequired: true, methods: [] });
      expect((await client.get('/api/repositories')).status).toBe(401);
      expect((await client.get('/api/auth/security')).status).toBe(200);
      const authenticator = new SoftwareAuthenticator(rpId, origin);
      expect((await registerPasskey(client, authenticator)).status).toBe(200);
      expect((await me(client))?.secondFactor).toBeUndefined();
      expect((await client.get('/api/repositories')).status).not.toBe(401);
    } finally {
      await admin.client.request('PUT', '/api/admin/platform-settings', {
        body: { key: 'require_second_factor_owners', value: 'false' },
      });
    }
  });

  it('lists the person’s sessions and signs out one or all others', async () => {
    const user = await createTestUser(app);
    const first = await signInSellerAs(user);
    const second = await signInSellerAs(user);
    const third = await signInSellerAs(user);
    const list = (await (await first.get('/api/auth/sessions')).json()) as SignedInSession[];
    expect(list).toHaveLength(3);
    expect(list.filter((session) => session.current)).toHaveLength(1);
    const secondId = ((await (await second.get('/api/auth/sessions')).json()) as SignedInSession[]).find(
      (session) => session.current,
    )!.id;
    expect((await first.delete(`/api/auth/sessions/${secondId}`)).status).toBe(200);
    expect(await me(second)).toBeNull();
    const stranger = await signInSeller(app);
    expect((await stranger.client.delete(`/api/auth/sessions/${list[0]!.id}`)).status).toBe(404);
    expect((await first.post('/api/auth/sessions/sign-out-others')).status).toBe(200);
    expect(await me(third)).toBeNull();
    expect((await me(first))?.id).toBe(user.id);
    expect(await app.ctx.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(1);
  });
});

describe('the second factor for admins', () => {
  const started = testAppAroundTests();

  async function adminLinkSignIn(email: string) {
    const client = new TestClient(started.app.baseUrl);
    await client.post('/api/auth/magic-link', { email, userType: 'admin' });
    const mail = lastMailTo(started.app.dataDir, email);
    const token = new URL(findLink(mail.body, /http\S+\/admin\/login\?token=\S+/)).searchParams.get('token')!;
    const verified = (await (await client.post('/api/auth/verify-magic-link', { token })).json()) as {
      user: AuthUser;
    };
    return { client, user: verified.user };
  }

  it('asks an admin with an authenticator app for a code, and then requires every admin to have a factor', async () => {
    await createTestUser(started.app, { userType: 'admin', email: 'first-admin@example.com' });
    await createTestUser(started.app, { userType: 'admin', email: 'second-admin@example.com' });
    const before = await adminLinkSignIn('second-admin@example.com');
    expect(before.user.secondFactor).toBeUndefined();

    const first = await adminLinkSignIn('first-admin@example.com');
    const enrolment = (await (await first.client.post('/api/auth/totp/enrolment')).json()) as TotpEnrolment;
    const totp = new TOTP({ secret: enrolment.secret, digits: 6, period: 30, algorithm: 'SHA1' });
    const code = () => totp.generate({ timestamp: started.app.clock.now().getTime() });
    expect((await first.client.post('/api/auth/totp/enrolment/confirm', { code: code() })).status).toBe(200);

    const again = await adminLinkSignIn('first-admin@example.com');
    expect(again.user.secondFactor).toEqual({ pending: true, enrolmentRequired: false, methods: [] });
    expect((await again.client.get('/api/admin/platform-settings')).status).toBe(401);
    started.app.clock.advance(30_000);
    expect((await again.client.post('/api/auth/totp/verify', { code: code() })).status).toBe(200);
    const settings = (await (await again.client.get('/api/admin/platform-settings')).json()) as {
      key: string;
      value: string;
    }[];
    expect(settings).toContainEqual({ key: 'require_second_factor_admins', value: 'true' });

    // Once an admin has a factor, the admins' requirement is on by default: the other admin enrols first.
    const second = await adminLinkSignIn('second-admin@example.com');
    expect(second.user.secondFactor?.enrolmentRequired).toBe(true);
    expect((await second.client.get('/api/admin/platform-settings')).status).toBe(401);
    expect((await second.client.get('/api/auth/security')).status).toBe(200);
  });
});

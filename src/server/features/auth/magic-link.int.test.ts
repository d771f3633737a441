import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { startFakeSmtp } from '../../../../test/fakes/smtp.js';
import { TestClient } from '../../../../test/support/http-client.js';
import { findLink, lastMailTo, mailsTo, readOutbox } from '../../../../test/support/outbox.js';
import { createTestUser, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp, testAppAroundTests } from '../../../../test/support/test-app.js';
import {
  type AuthUser,
  type MagicLinkResponse,
  SIGN_IN_REQUESTS_PER_CLIENT_ADDRESS,
  SIGN_IN_REQUESTS_PER_CLIENT_ADDRESS_CEILING,
  type VerifyMagicLinkResponse,
} from '../../../contract/auth.js';
import type { ApiError } from '../../../contract/errors.js';
import { magicLinks, users } from '../../db/schema/index.js';
import { sha256Hex } from '../../lib/crypto.js';
import { TOKEN_CHECKS_PER_IP } from './auth.routes.js';
import { LINKS_PER_ADDRESS } from './magic-link.service.js';

const MINUTE = 60_000;

function tokenFromAdminMail(app: TestApp, to: string): string {
  const link = findLink(lastMailTo(app.dataDir, to).body, /http\S+\/admin\/login\?token=\S+/);
  return new URL(link).searchParams.get('token')!;
}

describe('admin magic links', () => {
  const started = testAppAroundTests();

  const requestLink = (client: TestClient, email: string) =>
    client.post('/api/auth/magic-link', { email, userType: 'admin' });
  const verify = (client: TestClient, token: string) => client.post('/api/auth/verify-magic-link', { token });

  it('e-mails an admin a link to the login page that signs them in once', async () => {
    const admin = await createTestUser(started.app, { userType: 'admin', email: 'root@example.com' });
    const client = new TestClient(started.app.baseUrl);

    const response = await requestLink(client, 'Root@Example.com');
    expect(response.status).toBe(200);
    const body = (await response.json()) as MagicLinkResponse;
    expect(body).toEqual({ success: true, message: expect.stringContaining('root@example.com') });

    const mail = lastMailTo(started.app.dataDir, 'root@example.com');
    const link = findLink(mail.body, /http\S+\/admin\/login\?token=\S+/);
    expect(link.startsWith(`${started.app.ctx.config.publicUrl}/admin/login?token=pgml_`)).toBe(true);
    const token = new URL(link).searchParams.get('token')!;
    expect(mail.body).toContain(`\n${token}\n`); // also pasteable on the token step
    expect(mail.body).toContain('30 minutes');

    // Stored as a hash only.
    const [stored] = await started.app.ctx.db
      .select()
      .from(magicLinks)
      .where(eq(magicLinks.tokenHash, sha256Hex(token)));
    expect(stored).toMatchObject({ purpose: 'admin', email: 'root@example.com', usedAt: null });
    expect(JSON.stringify(await started.app.ctx.db.select().from(magicLinks))).not.toContain(token);

    const verified = await verify(client, token);
    expect(verified.status).toBe(200);
    const session = (await verified.json()) as VerifyMagicLinkResponse;
    expect(session).toMatchObject({
      success: true,
      user: { id: admin.id, userType: 'admin', email: 'root@example.com' },
    });
    const me = (await (await client.get('/api/auth/user')).json()) as AuthUser;
    expect(me).toMatchObject({ id: admin.id, userType: 'admin', isImpersonating: false });
  });

  it('refuses a token that has already been used', async () => {
    await createTestUser(started.app, { userType: 'admin', email: 'twice@example.com' });
    const client = new TestClient(started.app.baseUrl);
    await requestLink(client, 'twice@example.com');
    const token = tokenFromAdminMail(started.app, 'twice@example.com');
    expect((await verify(client, token)).status).toBe(200);

    const again = await verify(new TestClient(started.app.baseUrl), token);
    expect(again.status).toBe(400);
    const error = (await again.json()) as ApiError;
    expect(error).toMatchObject({ error: 'Token Already Used', status: 400 });
    expect(error.message).toContain('already been used');
  });

  it('refuses a token after its 30 minutes are over', async () => {
    await createTestUser(started.app, { userType: 'admin', email: 'late@example.com' });
    const client = new TestClient(started.app.baseUrl);
    await requestLink(client, 'late@example.com');
    const token = tokenFromAdminMail(started.app, 'late@example.com');
    started.app.clock.advance(31 * MINUTE);

    const response = await verify(client, token);
    expect(response.status).toBe(400);
    const error = (await response.json()) as ApiError;
    expect(error).toMatchObject({ error: 'Token Expired', status: 400 });
    expect(error.message).toContain('expired');
    expect(error.message).not.toContain('already been used');
  });

  it('refuses a token it never issued', async () => {
    const response = await verify(new TestClient(started.app.baseUrl), 'pgml_made-up-token');
    expect(response.status).toBe(400);
    const error = (await response.json()) as ApiError;
    expect(error).toMatchObject({ error: 'Invalid Token', status: 400 });
    expect(error.message).toContain('not valid');
  });

  it('answers an unknown, a seller and an admin address alike, and mails the admin only', async () => {
    await createTestUser(started.app, { userType: 'seller', email: 'seller@example.com' });
    await createTestUser(started.app, { userType: 'admin', email: 'boss@example.com' });
    const answers = [];
    for (const email of ['nobody@example.com', 'seller@example.com', 'boss@example.com']) {
      const response = await requestLink(new TestClient(started.app.baseUrl), email);
      const text = (await response.text()).replaceAll(email, '{email}');
      answers.push({ status: response.status, type: response.headers.get('content-type'), text });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[1]).toEqual(answers[2]);
    expect(answers[0]).toMatchObject({ status: 200 });
    expect(JSON.parse(answers[0]!.text)).toEqual({
      success: true,
      message:
        'If {email} belongs to an admin account, a magic link is on its way. It expires in 30 minutes. ' +
        'We send at most 5 links to one address in 15 minutes; if you asked more often, use a link you already have.',
    });

    const recipients = readOutbox(started.app.dataDir).map((mail) => mail.to);
    expect(recipients.filter((to) => to.includes('boss@example.com'))).toHaveLength(1);
    expect(recipients.filter((to) => to.includes('nobody@example.com') || to.includes('seller@example.com'))).toEqual(
      [],
    );
  });

  it('rotates the session when someone already signed in verifies a token', async () => {
    await createTestUser(started.app, { userType: 'admin', email: 'switch@example.com' });
    const { client, cookie, cookieName } = await signInSeller(started.app);
    await requestLink(client, 'switch@example.com');
    expect((await verify(client, tokenFromAdminMail(started.app, 'switch@example.com'))).status).toBe(200);
    expect(client.cookieHeader()).not.toContain(cookie);

    const withOldCookie = new TestClient(started.app.baseUrl);
    withOldCookie.setCookie(cookieName, cookie);
    expect(await (await withOldCookie.get('/api/auth/user')).json()).toBeNull();
  });
});

describe('admin magic links requested or verified again and again', () => {
  const started = testAppAroundTests();

  it('lets exactly one of two simultaneous verifications through', async () => {
    await createTestUser(started.app, { userType: 'admin', email: 'race@example.com' });
    await new TestClient(started.app.baseUrl).post('/api/auth/magic-link', {
      email: 'race@example.com',
      userType: 'admin',
    });
    const token = tokenFromAdminMail(started.app, 'race@example.com');
    const attempts = await Promise.all(
      Array.from({ length: 4 }, () =>
        new TestClient(started.app.baseUrl).post('/api/auth/verify-magic-link', { token }),
      ),
    );
    expect(attempts.map((response) => response.status).sort()).toEqual([200, 400, 400, 400]);
  });

  it('stops e-mailing links to one address after five in 15 minutes, then allows it again', async () => {
    await createTestUser(started.app, { userType: 'admin', email: 'flood@example.com' });
    const client = new TestClient(started.app.baseUrl);
    for (let attempt = 0; attempt < LINKS_PER_ADDRESS + 2; attempt++) {
      expect(
        (await client.post('/api/auth/magic-link', { email: 'flood@example.com', userType: 'admin' })).status,
      ).toBe(200);
    }
    expect(mailsTo(started.app.dataDir, 'flood@example.com')).toHaveLength(LINKS_PER_ADDRESS);

    started.app.clock.advance(16 * MINUTE);
    await client.post('/api/auth/magic-link', { email: 'flood@example.com', userType: 'admin' });
    expect(mailsTo(started.app.dataDir, 'flood@example.com')).toHaveLength(LINKS_PER_ADDRESS + 1);
  });
});

describe("magic links requested in someone else's name from many addresses", () => {
  // Behind one proxy, so that each request can come from a client address of its own.
  const started = testAppAroundTests({ env: { TRUST_PROXY: '1' } });

  const from = (clientAddress: string) => ({ headers: { 'x-forwarded-for': clientAddress } });
  const askLink = (client: TestClient, email: string, userType: 'admin' | 'seller', clientAddress: string) =>
    client.post('/api/auth/magic-link', { email, userType }, from(clientAddress));
  async function flood(email: string, userType: 'admin' | 'seller', network: string) {
    const attacker = new TestClient(started.app.baseUrl);
    for (const address of [`${network}.1`, `${network}.2`, `${network}.3`]) {
      for (let attempt = 0; attempt < 2 * LINKS_PER_ADDRESS; attempt++) {
        const response = await askLink(attacker, email, userType, address);
        expect(response.status).toBe(200);
      }
    }
  }

  // A throttled request is answered word for word as a first one for an address nobody knows.
  const answerOf = async (response: Response, email: string) => ({
    status: response.status,
    type: response.headers.get('content-type'),
    text: (await response.text()).replaceAll(email, '{email}'),
  });
  const limitNote =
    'We send at most 5 links to one address in 15 minutes; if you asked more often, use a link you already have.';

  it("answers a throttled admin's request exactly as an unknown address's, saying repeats within 15 minutes go unsent", async () => {
    await createTestUser(started.app, { userType: 'admin', email: 'patient@example.com' });
    const client = new TestClient(started.app.baseUrl);
    for (let attempt = 0; attempt < LINKS_PER_ADDRESS; attempt++) {
      await askLink(client, 'patient@example.com', 'admin', '203.0.113.40');
    }
    const throttled = await askLink(client, 'patient@example.com', 'admin', '203.0.113.40');
    const unknown = await askLink(client, 'stranger@example.com', 'admin', '203.0.113.41');
    expect(mailsTo(started.app.dataDir, 'patient@example.com')).toHaveLength(LINKS_PER_ADDRESS);
    const throttledAnswer = await answerOf(throttled, 'patient@example.com');
    expect(throttledAnswer).toEqual(await answerOf(unknown, 'stranger@example.com'));
    expect(JSON.parse(throttledAnswer.text)).toEqual({
      success: true,
      message: `If {email} belongs to an admin account, a magic link is on its way. It expires in 30 minutes. ${limitNote}`,
    });
  });

  it("answers a throttled seller's request exactly as a first request for an unknown address, saying repeats within 15 minutes go unsent", async () => {
    const client = new TestClient(started.app.baseUrl);
    const first = await askLink(client, 'newcomer@example.com', 'seller', '203.0.113.50');
    for (let attempt = 0; attempt < LINKS_PER_ADDRESS; attempt++) {
      await askLink(client, 'eager@example.com', 'seller', '203.0.113.51');
    }
    const throttled = await askLink(client, 'eager@example.com', 'seller', '203.0.113.51');
    expect(mailsTo(started.app.dataDir, 'eager@example.com')).toHaveLength(LINKS_PER_ADDRESS);
    const throttledAnswer = await answerOf(throttled, 'eager@example.com');
    expect(throttledAnswer).toEqual(await answerOf(first, 'newcomer@example.com'));
    expect(JSON.parse(throttledAnswer.text)).toEqual({
      success: true,
      message: `A sign-in link is on its way to {email}. It expires in 30 minutes. ${limitNote}`,
    });
  });

  it('still lets the admin ask and sign in, and sends the address five mails at most', async () => {
    const admin = await createTestUser(started.app, { userType: 'admin', email: 'target@example.com' });
    await flood('target@example.com', 'admin', '203.0.113');

    const owner = new TestClient(started.app.baseUrl);
    const asked = await askLink(owner, 'target@example.com', 'admin', '198.51.100.20');
    expect(asked.status).toBe(200);
    expect(mailsTo(started.app.dataDir, 'target@example.com')).toHaveLength(LINKS_PER_ADDRESS);

    const verified = await owner.post(
      '/api/auth/verify-magic-link',
      { token: tokenFromAdminMail(started.app, 'target@example.com') },
      from('198.51.100.20'),
    );
    expect(verified.status).toBe(200);
    expect(((await verified.json()) as VerifyMagicLinkResponse).user.id).toBe(admin.id);
  });

  it('still lets a seller ask and sign in with the latest link, five mails at most', async () => {
    await flood('shop@example.com', 'seller', '192.0.2');
    const owner = new TestClient(started.app.baseUrl);
    const asked = await askLink(owner, 'shop@example.com', 'seller', '198.51.100.21');
    expect(asked.status).toBe(200);
    const mails = mailsTo(started.app.dataDir, 'shop@example.com');
    expect(mails).toHaveLength(LINKS_PER_ADDRESS);

    const link = findLink(mails.at(-1)!.body, /http\S+\/api\/auth\/magic-link\/callback\?token=\S+/);
    const opened = await owner.get(new URL(link).pathname + new URL(link).search, {
      'x-forwarded-for': '198.51.100.21',
    });
    expect(opened.headers.get('location')).toBe('/dashboard');
    expect(((await (await owner.get('/api/auth/user')).json()) as AuthUser).email).toBe('shop@example.com');
  });
});

describe('magic link rate limits per client address', () => {
  const started = testAppAroundTests();

  it('answers 429 to a client that keeps asking for admin links, whatever the address', async () => {
    const client = new TestClient(started.app.baseUrl);
    for (let attempt = 0; attempt < SIGN_IN_REQUESTS_PER_CLIENT_ADDRESS; attempt++) {
      const response = await client.post('/api/auth/magic-link', {
        email: `probe${attempt}@example.com`,
        userType: 'admin',
      });
      expect(response.status).toBe(200);
    }
    const refused = await client.post('/api/auth/magic-link', { email: 'probe-last@example.com', userType: 'admin' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({
      error: 'Too Many Requests',
      message:
        'Too many sign-in links were asked for from your network: after 60 in 15 minutes, only an address that has had no link yet gets one.',
      status: 429,
    });
  });

  it('answers 429 to a client that keeps trying tokens', async () => {
    const client = new TestClient(started.app.baseUrl);
    for (let attempt = 0; attempt < TOKEN_CHECKS_PER_IP; attempt++) {
      expect((await client.post('/api/auth/verify-magic-link', { token: `pgml_guess${attempt}` })).status).toBe(400);
    }
    const refused = await client.post('/api/auth/verify-magic-link', { token: 'pgml_guess-last' });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: 'Too Many Requests', status: 429 });
  });
});

describe('seller sign-in links from an office behind one address', () => {
  // Behind one proxy, so that each test's office has a client address of its own.
  const started = testAppAroundTests({ env: { TRUST_PROXY: '1' } });

  const askFrom = (clientAddress: string) => (email: string) =>
    new TestClient(started.app.baseUrl).post(
      '/api/auth/magic-link',
      { email, userType: 'seller' },
      { headers: { 'x-forwarded-for': clientAddress } },
    );

  it('e-mails each of ten colleagues their link after one of them asked six times', async () => {
    const ask = askFrom('203.0.113.60');
    for (let attempt = 0; attempt < LINKS_PER_ADDRESS + 1; attempt++) {
      const answer = await ask('impatient@office.example');
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as MagicLinkResponse).message).toContain(
        'We send at most 5 links to one address in 15 minutes; if you asked more often, use a link you already have.',
      );
    }
    // The sixth is answered like the others and sends nothing.
    expect(mailsTo(started.app.dataDir, 'impatient@office.example')).toHaveLength(LINKS_PER_ADDRESS);

    for (let colleague = 1; colleague <= 10; colleague++) {
      expect((await ask(`colleague${colleague}@office.example`)).status).toBe(200);
      expect(mailsTo(started.app.dataDir, `colleague${colleague}@office.example`)).toHaveLength(1);
    }
  });

  it('refuses a mailbox that has had its link once the address asked too often, but serves a first request', async () => {
    const ask = askFrom('203.0.113.61');
    for (let asked = 0; asked < SIGN_IN_REQUESTS_PER_CLIENT_ADDRESS; asked++) {
      expect((await ask(`member${asked % 12}@team.example`)).status).toBe(200);
    }
    const again = await ask('member1@team.example');
    expect(again.status).toBe(429);
    expect(((await again.json()) as ApiError).suggestion).toMatch(/^Use a sign-in link you already have/);

    const newcomer = await ask('newcomer@team.example');
    expect(newcomer.status).toBe(200);
    expect(mailsTo(started.app.dataDir, 'newcomer@team.example')).toHaveLength(1);
  });

  it('stops an address that asks for links to ever more mailboxes', async () => {
    const ask = askFrom('203.0.113.62');
    for (let asked = 0; asked < SIGN_IN_REQUESTS_PER_CLIENT_ADDRESS_CEILING; asked++) {
      expect((await ask(`stranger${asked}@elsewhere.example`)).status).toBe(200);
    }
    const refused = await ask('one-more@elsewhere.example');
    expect(refused.status).toBe(429);
    expect(mailsTo(started.app.dataDir, 'one-more@elsewhere.example')).toHaveLength(0);
  });
});

describe('magic links with debug routes enabled', () => {
  const started = testAppAroundTests({ env: { ENABLE_DEBUG_ROUTES: 'true' } });

  it('returns the token in the answer, for development', async () => {
    await createTestUser(started.app, { userType: 'admin', email: 'dev@example.com' });
    const response = await new TestClient(started.app.baseUrl).post('/api/auth/magic-link', {
      email: 'dev@example.com',
      userType: 'admin',
    });
    const body = (await response.json()) as MagicLinkResponse;
    expect(body.token).toMatch(/^pgml_/);
    expect(body.token).toBe(tokenFromAdminMail(started.app, 'dev@example.com'));
  });
});

describe('seller sign-in by e-mail link (GitHub not configured)', () => {
  const started = testAppAroundTests();

  function sellerLink(to: string): string {
    return findLink(lastMailTo(started.app.dataDir, to).body, /http\S+\/api\/auth\/magic-link\/callback\?token=\S+/);
  }

  it('sends "Sign in with GitHub" to the e-mail sign-in form, keeping the chosen tier', async () => {
    const client = new TestClient(started.app.baseUrl);
    const plain = await client.get('/api/auth/github');
    expect(plain.status).toBe(302);
    expect(plain.headers.get('location')).toBe('/?signin=email');
    const withTier = await client.get('/api/auth/github?tier=growth');
    expect(withTier.headers.get('location')).toBe('/?signin=email&tier=growth');
  });

  it('creates the seller when the e-mailed link is opened and signs them in', async () => {
    const client = new TestClient(started.app.baseUrl);
    const response = await client.post('/api/auth/magic-link', {
      email: 'New.Seller@Example.com',
      userType: 'seller',
      tier: 'growth',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      success: true,
      message: expect.stringContaining('new.seller@example.com'),
    });
    // Nobody has proved they own the address yet.
    const before = await started.app.ctx.db.select().from(users).where(eq(users.email, 'new.seller@example.com'));
    expect(before).toHaveLength(0);

    const link = sellerLink('new.seller@example.com');
    expect(link.startsWith(`${started.app.ctx.config.publicUrl}/api/auth/magic-link/callback?token=pgml_`)).toBe(true);
    const opened = await client.get(link);
    expect(opened.status).toBe(302);
    expect(opened.headers.get('location')).toBe('/dashboard');

    const me = (await (await client.get('/api/auth/user')).json()) as AuthUser;
    expect(me).toMatchObject({
      userType: 'seller',
      email: 'new.seller@example.com',
      slug: 'new-seller',
      selectedTier: 'growth',
      githubUsername: null,
      hasAccessToken: false,
      isImpersonating: false,
    });
  });

  it('signs a returning seller into the account they already have', async () => {
    const existing = await createTestUser(started.app, { email: 'again@example.com' });
    const client = new TestClient(started.app.baseUrl);
    await client.post('/api/auth/magic-link', { email: 'again@example.com', userType: 'seller' });
    await client.get(sellerLink('again@example.com'));
    const me = (await (await client.get('/api/auth/user')).json()) as AuthUser;
    expect(me.id).toBe(existing.id);
  });

  it('sends a used, expired or unknown link back to the form with the reason', async () => {
    const client = new TestClient(started.app.baseUrl);
    await client.post('/api/auth/magic-link', { email: 'reuse@example.com', userType: 'seller' });
    const link = sellerLink('reuse@example.com');
    await client.get(link);
    const reused = await new TestClient(started.app.baseUrl).get(link);
    expect(reused.headers.get('location')).toBe('/?signin=email&error=used');

    await client.post('/api/auth/magic-link', { email: 'slow@example.com', userType: 'seller' });
    const slowLink = sellerLink('slow@example.com');
    started.app.clock.advance(31 * MINUTE);
    const expired = await new TestClient(started.app.baseUrl).get(slowLink);
    expect(expired.headers.get('location')).toBe('/?signin=email&error=expired');

    const unknown = await new TestClient(started.app.baseUrl).get('/api/auth/magic-link/callback?token=pgml_nonsense');
    expect(unknown.headers.get('location')).toBe('/?signin=email&error=invalid');
  });

  it('does not accept a seller link on the admin token step', async () => {
    const client = new TestClient(started.app.baseUrl);
    await client.post('/api/auth/magic-link', { email: 'crossover@example.com', userType: 'seller' });
    const token = new URL(sellerLink('crossover@example.com')).searchParams.get('token')!;
    const response = await client.post('/api/auth/verify-magic-link', { token });
    expect(response.status).toBe(400);
    expect(((await response.json()) as ApiError).message).toContain('not valid');
  });
});

describe('magic-link tokens in the log', () => {
  function capturedLogger() {
    const lines: string[] = [];
    return { lines, stream: { write: (line: string) => lines.push(line) } };
  }

  it('writes the link to the log in outbox mode, the embedded default without an inbox', async () => {
    const log = capturedLogger();
    const app = await startTestApp({ logStream: log.stream });
    try {
      await new TestClient(app.baseUrl).post('/api/auth/magic-link', {
        email: 'local@example.com',
        userType: 'seller',
      });
      const link = findLink(lastMailTo(app.dataDir, 'local@example.com').body, /pgml_[\w-]+/);
      expect(log.lines.join('')).toContain(link);
    } finally {
      await app.close();
    }
  });

  it('keeps tokens out of the log when mail goes out by SMTP', async () => {
    const smtp = await startFakeSmtp();
    const log = capturedLogger();
    const app = await startTestApp({ env: { SMTP_URL: smtp.url }, logStream: log.stream });
    try {
      await createTestUser(app, { userType: 'admin', email: 'ops@example.com' });
      const client = new TestClient(app.baseUrl);
      await client.post('/api/auth/magic-link', { email: 'ops@example.com', userType: 'admin' });
      await client.post('/api/auth/magic-link', { email: 'smtp-seller@example.com', userType: 'seller' });
      const tokens = smtp.messages.map(
        (message) => /pgml_[\w-]+/.exec(message.data.replace(/=\r?\n/g, '').replace(/=3D/g, '='))?.[0],
      );
      expect(tokens).toHaveLength(2);
      expect(tokens.every(Boolean)).toBe(true);
      // Opening the seller's link is logged as a request too.
      await client.get(`/api/auth/magic-link/callback?token=${tokens[1]}`);

      const written = log.lines.join('');
      expect(written).toContain('mail sent');
      for (const token of tokens) {
        expect(log.lines.filter((line) => line.includes(token!))).toEqual([]);
      }
    } finally {
      await app.close();
      await smtp.close();
    }
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestClient } from '../../../../test/support/http-client.js';
import { lastMailTo, mailsTo } from '../../../../test/support/outbox.js';
import { insertPackage } from '../../../../test/support/packages.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp, TestClock, YEAR_LONG_SESSIONS } from '../../../../test/support/test-app.js';
import { type Customer, licenseMessages, type TemporaryLicense } from '../../../contract/licenses.js';
import { customers, downloads, grants, holderTokens, type packages } from '../../db/schema/index.js';
import { DAY_MS } from '../../lib/clock.js';
import { sha256Hex } from '../../lib/crypto.js';
import { findCustomerByToken, recordDownload, recordDownloadAfterAnswer } from './grants.service.js';

const start = new Date('2026-03-01T12:00:00.000Z');
const TOKEN_PATTERN = /pgc_[A-Za-z0-9]{36}/g;

describe('licenses and license holders', () => {
  let app: TestApp;
  const clock = new TestClock(start);
  let sellerA: SignedIn;
  let sellerB: SignedIn;
  let widget: typeof packages.$inferSelect;
  let gadget: typeof packages.$inferSelect;
  let bobTool: typeof packages.$inferSelect;

  const uniqueEmail = (name: string) => `${name}-${randomBytes(3).toString('hex')}@example.com`;
  const licensesPath = (packageId: string) => `/api/repositories/${packageId}/temporary-licenses`;
  const repositoryUrl = () => `http://acme.composer.localhost:${app.port}`;

  async function startTrial(seller: SignedIn) {
    const response = await seller.client.post('/api/platform-subscription/start-trial', { tier: 'starter' });
    expect(response.status).toBe(200);
  }

  async function issue(
    seller: SignedIn,
    packageId: string,
    body: Record<string, unknown>,
  ): Promise<{ status: number; body: TemporaryLicense & { message?: string } }> {
    const response = await seller.client.post(licensesPath(packageId), body);
    return { status: response.status, body: await response.json() };
  }

  async function list(seller: SignedIn, packageId: string): Promise<TemporaryLicense[]> {
    const response = await seller.client.get(licensesPath(packageId));
    expect(response.status).toBe(200);
    return response.json();
  }

  /** Counts the statements the app's database runs from now until stop(). */
  function countStatements() {
    const db = app.ctx.db;
    const execute = db.execute;
    let statements = 0;
    db.execute = ((...args: Parameters<typeof execute>) => {
      statements++;
      return execute.apply(db, args);
    }) as typeof execute;
    return {
      stop() {
        db.execute = execute;
        return statements;
      },
    };
  }

  const tokensIn = (body: string) => [...new Set(body.match(TOKEN_PATTERN) ?? [])];

  /** The hashes of the holder's tokens that still work (the named tokens of issue 32). */
  async function tokenHashesOf(customerId: string) {
    const rows = await app.ctx.db
      .select({ tokenHash: holderTokens.tokenHash })
      .from(holderTokens)
      .where(and(eq(holderTokens.customerId, customerId), isNull(holderTokens.revokedAt)));
    return rows.map((row) => row.tokenHash);
  }

  async function customerRow(email: string) {
    const [row] = await app.ctx.db
      .select()
      .from(customers)
      .where(and(eq(customers.sellerId, sellerA.user.id), eq(customers.email, email)));
    return row;
  }

  beforeAll(async () => {
    app = await startTestApp({
      clock,
      env: YEAR_LONG_SESSIONS,
    });
    sellerA = await signInSeller(app, { slug: 'acme', githubUsername: 'acme-dev' });
    sellerB = await signInSeller(app, { slug: 'bobco' });
    await startTrial(sellerA);
    await startTrial(sellerB);
    widget = await insertPackage(app, sellerA.user.id, 'acme/widget');
    gadget = await insertPackage(app, sellerA.user.id, 'acme/gadget');
    bobTool = await insertPackage(app, sellerB.user.id, 'bob/tool');
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(() => {
    clock.set(start);
  });

  it('e-mails a new license holder the repository URL, a pgc_ token and the setup commands', async () => {
    const email = uniqueEmail('new-holder');
    const created = await issue(sellerA, widget.id, {
      email: `  ${email.toUpperCase()} `,
      durationDays: 7,
      note: 'Trial',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      email,
      isActive: true,
      daysRemaining: 7,
      createdAt: start.toISOString(),
      expiresAt: new Date(start.getTime() + 7 * DAY_MS).toISOString(),
      lastUsedAt: null,
      note: 'Trial',
      revokedAt: null,
    });

    const mails = mailsTo(app.dataDir, email);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe('Your access to acme/widget from acme-dev');
    expect(mail.body).toMatch(/^From: "?acme-dev"? </m);
    const [token, ...others] = tokensIn(mail.body);
    expect(token).toBeDefined();
    expect(others).toEqual([]);
    expect(mail.body).toContain(`Repository URL: ${repositoryUrl()}`);
    expect(mail.body).toContain(`composer config repositories.acme composer ${repositoryUrl()}`);
    expect(mail.body).toContain('composer config secure-http false');
    expect(mail.body).toContain(`composer config bearer.acme.composer.localhost:${app.port} ${token}`);
    expect(mail.body).toContain('composer require acme/widget');
    expect(mail.body).toContain('7-day temporary license');
    expect(mail.body).toContain('March 8, 2026 at 12:00 PM UTC');

    const holder = await customerRow(email);
    expect(await tokenHashesOf(holder!.id)).toEqual([sha256Hex(token!)]);
    expect((await findCustomerByToken(app.ctx, token!))?.id).toBe(holder?.id);

    // The token exists only in the e-mail: no table holds it in any column.
    const tables = (await app.ctx.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    )) as unknown as { rows: { table_name: string }[] };
    expect(tables.rows.length).toBeGreaterThan(5);
    for (const { table_name } of tables.rows) {
      const dump = (await app.ctx.db.execute(
        sql.raw(`select count(*)::int as hits from "${table_name}" t where t::text like '%${token}%'`),
      )) as unknown as { rows: { hits: number }[] };
      expect(dump.rows[0]?.hits, table_name).toBe(0);
    }
  });

  it('keeps the token of a known holder and tells them the new package was added', async () => {
    const email = uniqueEmail('known-holder');
    await issue(sellerA, widget.id, { email, durationDays: 7 });
    const before = await customerRow(email);

    const second = await issue(sellerA, gadget.id, { email, durationDays: 14 });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ email, isActive: true, daysRemaining: 14 });

    const after = await customerRow(email);
    expect(after?.id).toBe(before?.id);
    expect(await tokenHashesOf(after!.id)).toEqual(await tokenHashesOf(before!.id));
    expect(await tokenHashesOf(after!.id)).toHaveLength(1);
    const mail = lastMailTo(app.dataDir, email);
    expect(mailsTo(app.dataDir, email)).toHaveLength(2);
    expect(mail.subject).toBe('acme/gadget was added to your access from acme-dev');
    expect(mail.body).toContain('acme-dev has added acme/gadget to your access: a 14-day temporary license.');
    expect(mail.body).toContain(`Repository URL: ${repositoryUrl()}`);
    expect(mail.body).toContain('composer require acme/gadget');
    expect(mail.body).toContain('Lost your token?');
    expect(tokensIn(mail.body)).toEqual([]);
  });

  it('renews the holder’s license for the same package instead of failing, never shortening it', async () => {
    const email = uniqueEmail('renewal');
    const first = await issue(sellerA, widget.id, { email, durationDays: 3 });
    const longer = await issue(sellerA, widget.id, { email, durationDays: 30, note: 'Extended' });
    expect(longer.status).toBe(201);
    expect(longer.body).toMatchObject({ id: first.body.id, daysRemaining: 30, note: 'Extended' });
    expect(lastMailTo(app.dataDir, email).subject).toBe('Your license for acme/widget was renewed');

    const shorter = await issue(sellerA, widget.id, { email, durationDays: 1 });
    expect(shorter.body).toMatchObject({ id: first.body.id, daysRemaining: 30, note: 'Extended' });
    expect(await list(sellerA, widget.id)).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: first.body.id, daysRemaining: 30 })]),
    );
  });

  it('shows a license Active with its days left, and Expired once the days have passed', async () => {
    const email = uniqueEmail('expiry');
    const created = await issue(sellerA, widget.id, { email });
    expect(created.body).toMatchObject({ daysRemaining: 7 }); // the spec's default duration

    const active = (await list(sellerA, widget.id)).find((license) => license.id === created.body.id);
    expect(active).toMatchObject({ email, isActive: true, daysRemaining: 7, lastUsedAt: null });

    clock.advance(8 * DAY_MS);
    const expired = (await list(sellerA, widget.id)).find((license) => license.id === created.body.id);
    expect(expired).toMatchObject({ email, isActive: false, daysRemaining: -1 });
  });

  it('revokes a license at once, answers a second revoke alike, and reactivates it when issued again', async () => {
    const email = uniqueEmail('revoked');
    const created = await issue(sellerA, widget.id, { email, durationDays: 7 });

    clock.advance(DAY_MS);
    const revoked = await sellerA.client.delete(`${licensesPath(widget.id)}/${created.body.id}`);
    expect(revoked.status).toBe(200);
    const body = (await revoked.json()) as TemporaryLicense;
    expect(body).toMatchObject({ id: created.body.id, isActive: false, daysRemaining: 0 });
    expect(body.revokedAt).toBe(clock.now().toISOString());
    const [row] = await app.ctx.db.select().from(grants).where(eq(grants.id, created.body.id));
    expect(row).toMatchObject({ status: 'revoked', revokedAt: clock.now() });

    const again = await sellerA.client.delete(`${licensesPath(widget.id)}/${created.body.id}`);
    expect(again.status).toBe(200);
    expect(((await again.json()) as TemporaryLicense).revokedAt).toBe(body.revokedAt);

    const reissued = await issue(sellerA, widget.id, { email, durationDays: 3 });
    expect(reissued.body).toMatchObject({ id: created.body.id, isActive: true, daysRemaining: 3, revokedAt: null });
  });

  it('lists license holders with every grant they hold', async () => {
    const email = uniqueEmail('listed');
    const first = await issue(sellerA, widget.id, { email, durationDays: 7 });
    const second = await issue(sellerA, gadget.id, { email, durationDays: 30 });
    await sellerA.client.delete(`${licensesPath(gadget.id)}/${second.body.id}`);

    const response = await sellerA.client.get('/api/customers');
    expect(response.status).toBe(200);
    const holders = (await response.json()) as Customer[];
    const holder = holders.find((entry) => entry.email === email);
    expect(holder).toEqual({
      id: expect.any(String),
      email,
      createdAt: start.toISOString(),
      tokenIssuedAt: start.toISOString(),
      grants: expect.arrayContaining([
        {
          id: first.body.id,
          packageId: widget.id,
          productId: null,
          packageName: 'acme/widget',
          kind: 'temporary',
          status: 'active',
          isActive: true,
          expiresAt: first.body.expiresAt,
          endMode: 'access',
          downloadLimit: null,
          downloadCount: 0,
          lastUsedAt: null,
          versionConstraint: null,
          minimumStability: 'dev',
          seats: null,
          // The license e-mail went to the outbox.
          emailDelivery: 'delivered',
        },
        expect.objectContaining({ id: second.body.id, packageName: 'acme/gadget', status: 'revoked', isActive: false }),
      ]),
    });
    expect(holder?.grants).toHaveLength(2);
  });

  it('regenerates a token by e-mail, and the old one stops working', async () => {
    const email = uniqueEmail('regenerate');
    await issue(sellerA, widget.id, { email, durationDays: 7 });
    const [oldToken] = tokensIn(lastMailTo(app.dataDir, email).body);
    const before = await customerRow(email);

    clock.advance(DAY_MS);
    const response = await sellerA.client.post('/api/customers/regenerate-token', { email: email.toUpperCase() });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      success: true,
      message: `A new token was e-mailed to ${email}. The previous token no longer works.`,
      email,
      tokenIssuedAt: clock.now().toISOString(),
    });

    const mail = lastMailTo(app.dataDir, email);
    expect(mail.subject).toBe('Your new Composer token for acme-dev');
    const [newToken, ...others] = tokensIn(mail.body);
    expect(others).toEqual([]);
    expect(newToken).not.toBe(oldToken);
    expect(mail.body).toContain(`composer config bearer.acme.composer.localhost:${app.port} ${newToken}`);
    expect(mail.body).toContain('Packages you may install: acme/widget.');

    const after = await customerRow(email);
    expect(after?.id).toBe(before?.id);
    expect(await tokenHashesOf(after!.id)).toEqual([sha256Hex(newToken!)]);
    expect(await findCustomerByToken(app.ctx, oldToken!)).toBeUndefined();
    expect((await findCustomerByToken(app.ctx, newToken!))?.id).toBe(after?.id);
  });

  it('answers 404 to a token regeneration for an unknown holder, and the spec sentence without an e-mail', async () => {
    const unknown = await sellerA.client.post('/api/customers/regenerate-token', { email: 'nobody@example.com' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ status: 404, message: licenseMessages.customerNotFound });
    const missing = await sellerA.client.post('/api/customers/regenerate-token', {});
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ status: 400, message: 'Email is required' });
  });

  it('refuses a missing or malformed e-mail and any duration the spec does not offer', async () => {
    for (const body of [{ durationDays: 7 }, { email: '   ', durationDays: 7 }, {}]) {
      const refused = await issue(sellerA, widget.id, body);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('Email is required');
    }
    const withoutBody = await sellerA.client.request('POST', licensesPath(widget.id));
    expect(withoutBody.status).toBe(400);
    expect(((await withoutBody.json()) as { message: string }).message).toBe('Email is required');

    const malformed = await issue(sellerA, widget.id, { email: 'not-an-address', durationDays: 7 });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe(licenseMessages.emailInvalid);

    for (const durationDays of [5, 0, -7, 365]) {
      const refused = await issue(sellerA, widget.id, { email: uniqueEmail('duration'), durationDays });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe(licenseMessages.durationInvalid);
    }
    for (const durationDays of [1, 3, 7, 14, 30, 60, 90]) {
      const accepted = await issue(sellerA, widget.id, { email: uniqueEmail('duration'), durationDays });
      expect(accepted.status).toBe(201);
      expect(accepted.body.daysRemaining).toBe(durationDays);
    }
  });

  it('keeps every seller to their own packages, licenses and holders (404, never 403)', async () => {
    const email = uniqueEmail('tenant');
    const license = await issue(sellerA, widget.id, { email, durationDays: 7 });
    const bobLicense = await issue(sellerB, bobTool.id, { email: uniqueEmail('bob-holder'), durationDays: 7 });
    expect(bobLicense.status).toBe(201);

    const attempts: Array<[string, () => Promise<Response>]> = [
      ['list A’s package', () => sellerB.client.get(licensesPath(widget.id))],
      ['issue on A’s package', () => sellerB.client.post(licensesPath(widget.id), { email, durationDays: 7 })],
      ['revoke through A’s package', () => sellerB.client.delete(`${licensesPath(widget.id)}/${license.body.id}`)],
      [
        'revoke A’s license through B’s package',
        () => sellerB.client.delete(`${licensesPath(bobTool.id)}/${license.body.id}`),
      ],
      ['regenerate A’s holder', () => sellerB.client.post('/api/customers/regenerate-token', { email })],
      ['list a malformed package id', () => sellerB.client.get(licensesPath('not-a-uuid'))],
      ['list an unknown package', () => sellerB.client.get(licensesPath(randomUUID()))],
      ['revoke a malformed license id', () => sellerB.client.delete(`${licensesPath(bobTool.id)}/42`)],
      ['revoke an unknown license', () => sellerB.client.delete(`${licensesPath(bobTool.id)}/${randomUUID()}`)],
    ];
    for (const [what, attempt] of attempts) {
      const response = await attempt();
      expect(response.status, what).toBe(404);
    }

    const [row] = await app.ctx.db.select().from(grants).where(eq(grants.id, license.body.id));
    expect(row?.status).toBe('active');
    expect(await list(sellerA, widget.id)).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: license.body.id, isActive: true })]),
    );

    const bobHolders = (await (await sellerB.client.get('/api/customers')).json()) as Customer[];
    expect(bobHolders.map((holder) => holder.email)).not.toContain(email);
    expect(bobHolders.flatMap((holder) => holder.grants.map((grant) => grant.packageId))).toEqual([bobTool.id]);
    const acmeHolders = (await (await sellerA.client.get('/api/customers')).json()) as Customer[];
    expect(acmeHolders.flatMap((holder) => holder.grants.map((grant) => grant.packageId))).not.toContain(bobTool.id);
  });

  it('gives the same holder e-mail separate identities and tokens with separate sellers', async () => {
    const email = uniqueEmail('shared');
    await issue(sellerA, widget.id, { email, durationDays: 7 });
    await issue(sellerB, bobTool.id, { email, durationDays: 7 });
    const mails = mailsTo(app.dataDir, email);
    expect(mails).toHaveLength(2);
    const [tokenA] = tokensIn(mails[0]!.body);
    const [tokenB] = tokensIn(mails[1]!.body);
    expect(tokenA).not.toBe(tokenB);
    expect(mails[1]!.body).toContain(`bobco.composer.localhost:${app.port}`);
    const holderA = await findCustomerByToken(app.ctx, tokenA!);
    const holderB = await findCustomerByToken(app.ctx, tokenB!);
    expect(holderA?.sellerId).toBe(sellerA.user.id);
    expect(holderB?.sellerId).toBe(sellerB.user.id);
  });

  it('requires a session, and a trial or subscription to issue licenses', async () => {
    const anonymous = new TestClient(app.baseUrl);
    expect((await anonymous.get(licensesPath(widget.id))).status).toBe(401);
    expect((await anonymous.get('/api/customers')).status).toBe(401);
    expect((await anonymous.post(licensesPath(widget.id), { email: 'x@example.com' }, { csrf: false })).status).toBe(
      401,
    );

    const withoutPlan = await signInSeller(app);
    const ownPackage = await insertPackage(app, withoutPlan.user.id, 'plain/pkg');
    const refused = await issue(withoutPlan, ownPackage.id, { email: uniqueEmail('no-plan'), durationDays: 7 });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('An active subscription or free trial is required for this action.');
    expect(await list(withoutPlan, ownPackage.id)).toEqual([]);
  });

  it('holds new license holders to the plan’s limit, while known holders still get licenses', async () => {
    const seller = await signInSeller(app);
    await startTrial(seller); // starter: 25 license holders
    const pkg = await insertPackage(app, seller.user.id, 'limited/pkg');
    const other = await insertPackage(app, seller.user.id, 'limited/other');
    await app.ctx.db.insert(customers).values(
      Array.from({ length: 24 }, (_, index) => ({
        sellerId: seller.user.id,
        email: `existing-${index}@example.com`,
        tokenHash: sha256Hex(randomBytes(16).toString('hex')),
      })),
    );
    expect((await issue(seller, pkg.id, { email: 'twenty-fifth@example.com', durationDays: 7 })).status).toBe(201);
    const refused = await issue(seller, pkg.id, { email: 'twenty-sixth@example.com', durationDays: 7 });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Your Starter plan allows up to 25 license holders.');
    expect((await issue(seller, other.id, { email: 'twenty-fifth@example.com', durationDays: 7 })).status).toBe(201);
  });

  it('lets only one of several simultaneous new holders take the plan’s last place', async () => {
    const seller = await signInSeller(app);
    await startTrial(seller); // starter: 25 license holders
    const pkg = await insertPackage(app, seller.user.id, 'racing/pkg');
    await app.ctx.db.insert(customers).values(
      Array.from({ length: 24 }, (_, index) => ({
        sellerId: seller.user.id,
        email: `racer-existing-${index}@example.com`,
        tokenHash: sha256Hex(randomBytes(16).toString('hex')),
      })),
    );
    const racing = await Promise.all(
      ['first', 'second', 'third'].map((name) =>
        issue(seller, pkg.id, { email: `${name}@example.com`, durationDays: 7 }),
      ),
    );
    expect(racing.map((answer) => answer.status).sort()).toEqual([201, 403, 403]);
    const holders = await app.ctx.db.select().from(customers).where(eq(customers.sellerId, seller.user.id));
    expect(holders).toHaveLength(25);
  });

  it('never lets a temporary license cut short a purchased license that still gives access', async () => {
    const email = uniqueEmail('buyer');
    await issue(sellerA, gadget.id, { email, durationDays: 7 }); // makes the holder known
    const holder = await customerRow(email);
    await app.ctx.db
      .insert(grants)
      .values({ customerId: holder!.id, packageId: widget.id, kind: 'purchase', endMode: 'updates', expiresAt: null });
    const refused = await issue(sellerA, widget.id, { email, durationDays: 7 });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(`${email} already holds a license for acme/widget`);
    const [grant] = await app.ctx.db
      .select()
      .from(grants)
      .where(and(eq(grants.customerId, holder!.id), eq(grants.packageId, widget.id)));
    expect(grant).toMatchObject({ kind: 'purchase', expiresAt: null });
  });

  it('counts downloads without a limit after their answers: every one once, and none of a revoked license', async () => {
    const counted = await issue(sellerA, widget.id, { email: uniqueEmail('after'), durationDays: 7 });
    const revoked = await issue(sellerA, widget.id, { email: uniqueEmail('after-revoked'), durationDays: 7 });
    await app.ctx.db.update(grants).set({ status: 'revoked' }).where(eq(grants.id, revoked.body.id));

    for (let index = 0; index < 12; index++) recordDownloadAfterAnswer(app.ctx, counted.body.id, '1.0.0');
    recordDownloadAfterAnswer(app.ctx, revoked.body.id, '1.0.0');
    await app.ctx.downloadCounter.flush();

    expect(app.ctx.downloadCounter.hasWaiting).toBe(false);
    const rows = await app.ctx.db.select().from(downloads).where(eq(downloads.grantId, counted.body.id));
    expect(rows).toHaveLength(12);
    const [grant] = await app.ctx.db.select().from(grants).where(eq(grants.id, counted.body.id));
    expect(grant).toMatchObject({ downloadCount: 12, lastUsedAt: clock.now() });
    expect(await app.ctx.db.select().from(downloads).where(eq(downloads.grantId, revoked.body.id))).toHaveLength(0);
  });

  it('counts downloads against the limit atomically: 30 at once under a limit of 10 give exactly 10', async () => {
    const email = uniqueEmail('limited');
    const created = await issue(sellerA, widget.id, { email, durationDays: 7 });
    await app.ctx.db.update(grants).set({ downloadLimit: 10 }).where(eq(grants.id, created.body.id));

    const results = await Promise.all(
      Array.from({ length: 30 }, () => recordDownload(app.ctx, created.body.id, '1.0.0')),
    );
    expect(results.filter(Boolean)).toHaveLength(10);
    const [grant] = await app.ctx.db.select().from(grants).where(eq(grants.id, created.body.id));
    expect(grant).toMatchObject({ downloadCount: 10, lastUsedAt: clock.now() });
    const rows = await app.ctx.db.select().from(downloads).where(eq(downloads.grantId, created.body.id));
    expect(rows).toHaveLength(10);
    expect(rows[0]).toMatchObject({ packageId: widget.id, version: '1.0.0', downloadedAt: clock.now() });
    expect((await list(sellerA, widget.id)).find((license) => license.id === created.body.id)?.lastUsedAt).toBe(
      clock.now().toISOString(),
    );
  });

  it('counts downloads arriving together in one go, each grant by its own rules', async () => {
    const unlimited = await issue(sellerA, widget.id, { email: uniqueEmail('together'), durationDays: 7 });
    const limited = await issue(sellerA, widget.id, { email: uniqueEmail('together'), durationDays: 7 });
    await app.ctx.db.update(grants).set({ downloadLimit: 2 }).where(eq(grants.id, limited.body.id));
    const revoked = await issue(sellerA, widget.id, { email: uniqueEmail('together'), durationDays: 7 });
    await sellerA.client.delete(`${licensesPath(widget.id)}/${revoked.body.id}`);
    const statements = countStatements();

    const [fromUnlimited, fromLimited, fromRevoked] = await Promise.all([
      Promise.all(Array.from({ length: 6 }, () => recordDownload(app.ctx, unlimited.body.id, '1.0.0', '198.51.100.7'))),
      Promise.all(Array.from({ length: 5 }, () => recordDownload(app.ctx, limited.body.id, '1.0.0'))),
      recordDownload(app.ctx, revoked.body.id, '1.0.0'),
    ]);
    expect(fromUnlimited).toEqual([true, true, true, true, true, true]);
    expect(fromLimited.filter(Boolean)).toHaveLength(2);
    expect(fromRevoked).toBe(false);
    // Twelve downloads, far fewer statements: the ones that came together were counted together.
    expect(statements.stop()).toBeLessThan(12);

    const countOf = async (grantId: string) => {
      const [grant] = await app.ctx.db.select().from(grants).where(eq(grants.id, grantId));
      const rows = await app.ctx.db.select().from(downloads).where(eq(downloads.grantId, grantId));
      return {
        counted: grant!.downloadCount,
        recorded: rows.length,
        networks: [...new Set(rows.map((row) => row.clientNetwork))],
      };
    };
    expect(await countOf(unlimited.body.id)).toEqual({ counted: 6, recorded: 6, networks: ['198.51.100.0/24'] });
    expect(await countOf(limited.body.id)).toEqual({ counted: 2, recorded: 2, networks: [null] });
    expect(await countOf(revoked.body.id)).toEqual({ counted: 0, recorded: 0, networks: [] });
  });

  it('records no download on a revoked or expired license', async () => {
    const revoked = await issue(sellerA, widget.id, { email: uniqueEmail('no-download'), durationDays: 1 });
    await sellerA.client.delete(`${licensesPath(widget.id)}/${revoked.body.id}`);
    expect(await recordDownload(app.ctx, revoked.body.id, '1.0.0')).toBe(false);

    const expiring = await issue(sellerA, widget.id, { email: uniqueEmail('no-download'), durationDays: 1 });
    clock.advance(DAY_MS);
    expect(await recordDownload(app.ctx, expiring.body.id, '1.0.0')).toBe(false);
    const rows = await app.ctx.db.select().from(downloads).where(eq(downloads.grantId, expiring.body.id));
    expect(rows).toEqual([]);
  });
});

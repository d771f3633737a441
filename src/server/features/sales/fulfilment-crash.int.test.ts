import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, count, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPackage, type FixturePackage } from '../../../../test/composer/repository-fixtures.js';
import { type FakeStripe, type FakeStripeEvent, startFakeStripe } from '../../../../test/fakes/stripe.js';
import { watchChild } from '../../../../test/support/child-output.js';
import { createDatabaseFromTemplate, loadPgliteTemplate } from '../../../../test/support/database-template.js';
import { mailsTo } from '../../../../test/support/outbox.js';
import { settleJobs, settleProviderEvents } from '../../../../test/support/provider-events.js';
import { purchasePageJson } from '../../../../test/support/purchase-pages.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { type TestApp, TestClock, testDatabaseKind } from '../../../../test/support/test-app.js';
import type { PackagePrice, PurchaseResult, StartCheckoutResponse } from '../../../contract/sales.js';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import type { DatabaseTarget } from '../../db/client.js';
import { customers, grants, jobs, platformSubscriptions, sales } from '../../db/schema/index.js';
import { MAIL_JOB } from '../../jobs/mail-delivery.js';
import type { CrashPoint } from '../../lib/crash-points.js';

// Issue 28 item 5: a paid sale must never end without its license. A second process (the real server, started with
// tsx) receives each Stripe event and kills itself with SIGKILL at one named step of applying it
// (PACKGATE_TEST_CRASH_AT); then this process opens the same database again, as a restarted server would, lets the
// stored event's job run, hears the event again (Stripe sends it again when it got no answer) and counts. After
// every crash point: exactly one license, one e-mail and one fee record for a purchase; the sale refunded and its
// license revoked for a refund; one renewal sale with its fee and the license extended for a renewal.
//
// On PGlite the database is a folder only one process may open: the app here closes while the other process runs.
// On PostgreSQL it stays open with its job runner paused, and takes the dead process's job over once the job's
// lease (2 s in the other process) runs out.

const root = path.resolve(import.meta.dirname, '../../../..');
const HOST = 'acme.composer.localhost';
const isPglite = testDatabaseKind() === 'pglite';

/** The clock of a real restart: job leases and backoffs pass in real time. */
class WallClock extends TestClock {
  override now(): Date {
    return new Date();
  }
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'packgate-crash-'));
const secretKey = randomBytes(32).toString('hex');
let stripe: FakeStripe;
let database: { target: DatabaseTarget; childEnv: Record<string, string>; drop(): Promise<void> };
let app: TestApp | undefined;
let seller: SignedIn;
let accountId: string;
let widget: FixturePackage;
let service: FixturePackage;
let lifetimeTierId: string;
let monthlyTierId: string;
/** What each crash point left, once the work ran again: reported in the closing note. */
const figures: string[] = [];

function baseEnv(): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SECRET_KEY: secretKey,
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...stripe.env(),
  };
}

/** Opens the app on the shared database here (the restarted server). */
async function openApp(): Promise<TestApp> {
  const config = loadConfig({ ...baseEnv(), PORT: '0', LOG_LEVEL: 'silent' });
  const built = await buildApp({ config, clock: new WallClock(), database: database.target, logger: false });
  const address = await built.app.listen({ port: 0, host: '127.0.0.1' });
  const port = Number(new URL(address).port);
  built.ctx.config.publicUrl = `http://localhost:${port}`;
  built.ctx.config.port = port;
  // Once the data is in the folder, later opens read it from there.
  if (database.target.kind === 'pglite')
    database.target = { kind: 'pglite', dataDir: database.target.dataDir, migrated: true };
  return {
    ...built,
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    clock: new WallClock(),
    close: built.close,
  };
}

function current(): TestApp {
  if (!app) throw new Error('the app is not open');
  return app;
}

type Child = { child: ChildProcess; port: number; output(): string; exited: Promise<NodeJS.Signals | number | null> };

/**
 * The real server in a process of its own, which kills itself at `crashAt`. It is given a port of its own (the
 * crash must happen in that process, not on a port the test chose for another), below Linux's ephemeral ports
 * (32768 and up), where an outgoing connection of any other test could hold the same number; a port taken all the
 * same is tried again with another.
 */
async function startCrashingServer(crashAt: CrashPoint): Promise<Child> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startCrashingServerOn(20_000 + Math.floor(Math.random() * 12_000), crashAt);
    } catch (error) {
      if (attempt >= 5 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

async function startCrashingServerOn(port: number, crashAt: CrashPoint): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/server/main.ts')], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...baseEnv(),
      ...database.childEnv,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      JOB_LEASE_SECONDS: '2',
      PACKGATE_TEST_CRASH_AT: crashAt,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const watched = watchChild(child);
  const output = watched.output;
  const exited = watched.exited.then(({ code, signal }) => signal ?? code);
  const deadline = Date.now() + 90_000;
  while (!output().includes('Packgate is running at')) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server stopped:\n${output()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not start within 90 s:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, port, output, exited };
}

/**
 * Hands the event to a server that dies at `crashAt` while applying it, proves it died there (SIGKILL), and opens
 * the database here again: the stored event's job runs again, and Stripe's redelivery of the event changes nothing.
 */
async function crashWhileApplying(event: FakeStripeEvent, crashAt: CrashPoint): Promise<void> {
  if (isPglite) {
    await current().close();
    app = undefined;
  } else {
    current().ctx.jobs.pause();
  }
  const server = await startCrashingServer(crashAt);
  const answer = await stripe
    .deliver(`http://127.0.0.1:${server.port}/api/stripe/connect-webhook`, event)
    .then((response) => response.status)
    .catch(() => 'no answer');
  const ended = await Promise.race([
    server.exited,
    new Promise((resolve) => setTimeout(() => resolve('still running'), 90_000)),
  ]);
  if (ended === 'still running') server.child.kill('SIGKILL');
  expect(ended, `${crashAt}: ${server.output()}`).toBe('SIGKILL');
  // Killed before its answer, the event is not acknowledged; killed after, it is.
  expect(answer).toBe(crashAt === 'event-recorded' ? 'no answer' : 200);

  if (isPglite) app = await openApp();
  else current().ctx.jobs.resume();
  await settleProviderEvents(current(), 60_000);
  const again = await stripe.deliver(`${current().baseUrl}/api/stripe/connect-webhook`, event);
  expect(await again.json()).toMatchObject({ received: true, duplicate: true });
  await settleMail();
}

/** Waits until every e-mail has been sent or has failed an attempt, those a killed process left running included. */
const settleMail = () => settleJobs(current(), [MAIL_JOB]);

const onHost = <T>(path: string, body?: unknown) => purchasePageJson<T>(current(), HOST, path, body);

async function startCheckout(packageId: string, tierId: string, email: string): Promise<string> {
  const started = await onHost<StartCheckoutResponse>('/api/purchase/checkout', { packageId, tierId, email });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return started.body.sessionId;
}

const connectEvent = (type: string, object: Record<string, unknown> & { id: string }) =>
  stripe.event(type, object, { account: accountId });

/** A purchase paid and fulfilled without a crash (the start of a refund or a renewal). */
async function paidPurchase(packageId: string, tierId: string, email: string) {
  const sessionId = await startCheckout(packageId, tierId, email);
  const paid = stripe.completeCheckout(sessionId);
  const response = await stripe.deliver(
    `${current().baseUrl}/api/stripe/connect-webhook`,
    connectEvent('checkout.session.completed', paid.session),
  );
  expect(response.status).toBe(200);
  await settleProviderEvents(current());
  await settleMail();
  return { sessionId, ...paid, sale: await saleBySession(sessionId) };
}

async function saleBySession(sessionId: string) {
  const [sale] = await current().ctx.db.select().from(sales).where(eq(sales.checkoutSessionId, sessionId));
  return sale!;
}

/** The buyer's licenses, e-mails (written and queued) and fee records of a payment. */
async function countsFor(email: string, packageId: string, paymentIntentId: string | null) {
  const db = current().ctx.db;
  const licenses = await db
    .select({ grant: grants })
    .from(grants)
    .innerJoin(customers, eq(customers.id, grants.customerId))
    .where(and(eq(customers.email, email), eq(grants.packageId, packageId), eq(grants.kind, 'purchase')));
  const mailJobs = licenses.length
    ? await db
        .select({ total: count() })
        .from(jobs)
        .where(and(eq(jobs.kind, MAIL_JOB), eq(jobs.reference, `grant:${licenses[0]!.grant.id}`)))
    : [{ total: 0 }];
  const fees = paymentIntentId
    ? await db
        .select()
        .from(sales)
        .where(and(eq(sales.paymentIntentId, paymentIntentId), gt(sales.feeCents, 0), eq(sales.kind, 'purchase')))
    : [];
  return {
    licenses: licenses.map((row) => row.grant),
    emails: mailsTo(dataDir, email).length,
    mailJobs: mailJobs[0]!.total,
    fees,
  };
}

beforeAll(async () => {
  stripe = await startFakeStripe();
  if (isPglite) {
    const template = inject('pgliteTemplate');
    database = {
      target: {
        kind: 'pglite',
        dataDir: path.join(dataDir, 'pglite'),
        ...(template ? { loadDataDir: await loadPgliteTemplate(template), migrated: true } : {}),
      },
      childEnv: {},
      drop: async () => {},
    };
  } else {
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const created = await createDatabaseFromTemplate(adminUrl, inject('postgresTemplate') ?? 'template1');
    database = {
      target: { kind: 'postgres', url: created.url, migrated: Boolean(inject('postgresTemplate')) },
      childEnv: { DATABASE_URL: created.url },
      drop: created.drop,
    };
  }
  app = await openApp();
  seller = await signInSeller(current(), { slug: 'acme' });
  await current()
    .ctx.db.insert(platformSubscriptions)
    .values({
      userId: seller.user.id,
      status: 'active',
      tierId: 'enterprise',
      currentPeriodEnd: new Date(Date.now() + 400 * 86_400_000),
    });
  widget = await createPackage(current(), seller.user, 'acme/widget', [
    { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
  ]);
  service = await createPackage(current(), seller.user, 'acme/service', [
    { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
  ]);
  const link = await seller.client.post('/api/sales/payout-account/onboarding-link', { returnPath: '/dashboard' });
  expect(link.status, await link.clone().text()).toBe(200);
  accountId = [...stripe.accounts.values()][0]!.id;
  stripe.enableAccount(accountId);
  await stripe.deliver(
    `${current().baseUrl}/api/stripe/connect-webhook`,
    connectEvent('account.updated', stripe.accounts.get(accountId)!),
  );
  await settleProviderEvents(current());
  const putTiers = async (packageId: string, tiers: unknown[]) => {
    const response = await seller.client.put(`/api/repositories/${packageId}/pricing-tiers`, { tiers });
    expect(response.status, await response.clone().text()).toBe(200);
    return ((await response.json()) as PackagePrice[])[0]!.id;
  };
  lifetimeTierId = await putTiers(widget.id, [
    { name: 'Lifetime', pricingType: 'one_time', updateMonths: 12, priceCents: 1999, currency: 'usd' },
  ]);
  monthlyTierId = await putTiers(service.id, [
    { name: 'Monthly', pricingType: 'subscription', interval: 'month', priceCents: 990, currency: 'usd' },
  ]);
}, 180_000);

afterAll(async () => {
  await app?.close();
  await stripe?.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`crash-point figures (${testDatabaseKind()}):\n${figures.join('\n')}`);
});

const PURCHASE_STEPS: CrashPoint[] = [
  'event-recorded',
  'sale-paid',
  'grant-created',
  'mail-queued',
  'webhook-queued',
  'sale-fulfilled',
  'mail-sent',
];

describe('a purchase whose server is killed while fulfilling it', { timeout: 240_000 }, () => {
  it.each(PURCHASE_STEPS)('ends with one license, one e-mail and one fee after a kill at %s', async (step) => {
    const email = `buyer-${step}@example.com`;
    const sessionId = await startCheckout(widget.id, lifetimeTierId, email);
    const { session, charge } = stripe.completeCheckout(sessionId);
    await crashWhileApplying(connectEvent('checkout.session.completed', session), step);

    const sale = await saleBySession(sessionId);
    expect(sale).toMatchObject({ status: 'paid', feeCents: 100, paymentIntentId: charge!.payment_intent });
    const counted = await countsFor(email, widget.id, sale.paymentIntentId);
    expect(counted.licenses).toHaveLength(1);
    expect(counted.licenses[0]).toMatchObject({ id: sale.grantId, status: 'active' });
    expect(counted.emails).toBe(1);
    expect(counted.mailJobs).toBe(1);
    expect(counted.fees).toHaveLength(1);
    const page = await onHost<PurchaseResult>(`/api/purchase/sessions/${sessionId}`);
    expect(page.body).toMatchObject({ status: 'complete' });
    expect(page.body.token).toMatch(/^pgc_/);
    figures.push(
      `purchase, killed at ${step}: ${counted.licenses.length} license, ${counted.emails} e-mail ` +
        `(${counted.mailJobs} mail job), ${counted.fees.length} fee record`,
    );
  });
});

describe('a refund whose server is killed while applying it', { timeout: 240_000 }, () => {
  it.each<CrashPoint>(['event-recorded', 'sale-ended', 'refund-applied'])(
    'ends refunded with the license revoked after a kill at %s',
    async (step) => {
      const email = `refunded-${step}@example.com`;
      const { sale, charge } = await paidPurchase(widget.id, lifetimeTierId, email);
      await crashWhileApplying(connectEvent('charge.refunded', stripe.refundCharge(charge!.id)), step);

      const ended = await saleBySession(sale.checkoutSessionId!);
      expect(ended.status).toBe('refunded');
      const counted = await countsFor(email, widget.id, sale.paymentIntentId);
      expect(counted.licenses).toHaveLength(1);
      expect(counted.licenses[0]).toMatchObject({ id: sale.grantId, status: 'revoked' });
      expect(counted.emails).toBe(1);
      expect(counted.fees).toHaveLength(1);
      figures.push(
        `refund, killed at ${step}: sale ${ended.status}, ${counted.licenses.length} license (${counted.licenses[0]!.status}), ` +
          `${counted.emails} e-mail, ${counted.fees.length} fee record`,
      );
    },
  );
});

describe('a renewal whose server is killed while applying it', { timeout: 240_000 }, () => {
  it.each<CrashPoint>(['event-recorded', 'renewal-recorded', 'renewal-applied'])(
    'ends with one renewal sale and its fee, and the license extended, after a kill at %s',
    async (step) => {
      const email = `renewed-${step}@example.com`;
      const { sale, subscription } = await paidPurchase(service.id, monthlyTierId, email);
      const before = (await countsFor(email, service.id, null)).licenses[0]!;
      const renewed = stripe.renewSubscription(subscription.id);
      await crashWhileApplying(connectEvent('invoice.paid', renewed.invoice), step);

      const renewals = await current()
        .ctx.db.select()
        .from(sales)
        .where(and(eq(sales.subscriptionId, subscription.id), eq(sales.kind, 'renewal')));
      expect(renewals).toHaveLength(1);
      expect(renewals[0]).toMatchObject({
        status: 'paid',
        amountCents: 990,
        feeCents: 50,
        invoiceId: renewed.invoice.id,
      });
      const counted = await countsFor(email, service.id, null);
      expect(counted.licenses).toHaveLength(1);
      expect(counted.licenses[0]!.id).toBe(sale.grantId);
      expect(counted.licenses[0]!.expiresAt!.getTime()).toBeGreaterThan(before.expiresAt!.getTime());
      expect(counted.emails).toBe(1);
      figures.push(
        `renewal, killed at ${step}: ${renewals.length} renewal sale (fee ${renewals[0]!.feeCents}), ` +
          `${counted.licenses.length} license extended to ${counted.licenses[0]!.expiresAt!.toISOString()}, ${counted.emails} e-mail`,
      );
    },
  );
});

import { mkdtemp, rm } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CreatedApiToken } from '../src/contract/developer.js';
import type { PackagePrice, StartCheckoutResponse } from '../src/contract/sales.js';
import { buildApp } from '../src/server/app.js';
import { platformSubscriptions } from '../src/server/db/schema/index.js';
import { createGrant, createHolder, createPackage, requestOnHost } from '../test/composer/repository-fixtures.js';
import { startFakeStripe } from '../test/fakes/stripe.js';
import { createPackageRepository } from '../test/support/git-fixtures.js';
import { loopbackAppConfig } from '../test/support/loopback-config.js';
import { waitForSync } from '../test/support/packages.js';
import { settleProviderEvents } from '../test/support/provider-events.js';
import { signInSeller } from '../test/support/sessions.js';
import type { TestApp } from '../test/support/test-app.js';

// How many source files four requests cross (docs/ARCHITECTURE.md "Four journeys", issue 29): a holder's
// `composer update`, an API v1 license, a Stripe sale, a package sync. Measured, not read off imports: V8's precise
// coverage counts the calls of every function, and the files of src/ with a function that ran between two snapshots
// around a journey are the files it crossed. Left out: the table definitions of db/schema/ (Drizzle calls their
// index and foreign-key callbacks when it builds a statement: data, not a step), and, for journeys that start no job,
// the job runner's poll (jobs/job-runner.ts, jobs/jobs.repository.ts), which an idle window of the same app runs too.
// Usage: `npx tsx scripts/journeys.ts` (PGlite, a fake Stripe, the embedded code host; a minute or two). Prints each
// journey's count and files by folder.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = `${ROOT}/src/`;
const SCHEMA = `${SRC}server/db/schema/`;
const JOB_POLL = [`${SRC}server/jobs/job-runner.ts`, `${SRC}server/jobs/jobs.repository.ts`];

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

/**
 * The files of src/ with a function that ran while `work` did (taking coverage resets the counts). What the previous
 * journey left to do later (a zip's download count is written once the wave of zips is over) is let finish first.
 */
async function filesRunBy(work: () => Promise<unknown>): Promise<Set<string>> {
  await new Promise((resolve) => setTimeout(resolve, 500));
  await session.post('Profiler.takePreciseCoverage');
  await work();
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const files = new Set<string>();
  for (const script of result) {
    if (!script.url.startsWith('file://')) continue;
    const file = fileURLToPath(script.url);
    if (!file.startsWith(SRC) || file.startsWith(SCHEMA) || /\.test\.tsx?$/.test(file)) continue;
    if (script.functions.some((fn) => fn.ranges.some((range) => range.count > 0))) files.add(file);
  }
  return files;
}

const stripe = await startFakeStripe({ now: () => new Date() });
const dataDir = await mkdtemp(path.join(tmpdir(), 'packgate-journeys-'));
const config = loopbackAppConfig(dataDir, stripe.env());
const built = await buildApp({ config, database: { kind: 'pglite' } });
const address = await built.app.listen({ port: 0, host: '127.0.0.1' });
const port = Number(new URL(address).port);
built.ctx.config.publicUrl = `http://localhost:${port}`;
built.ctx.config.port = port;
// The test helpers take a test app; they use its context, address and port, which this app has.
const app = { ...built, baseUrl: `http://127.0.0.1:${port}`, port, dataDir } as unknown as TestApp;

const journeys = new Map<string, Set<string>>();
const record = (name: string, ...parts: Set<string>[]) =>
  journeys.set(name, new Set(parts.flatMap((part) => [...part])));
const expectStatus = (what: string, status: number, expected: number) => {
  if (status !== expected) throw new Error(`${what} answered ${status}, not ${expected}`);
};

try {
  const idle = await filesRunBy(() => new Promise((resolve) => setTimeout(resolve, 2_500)));
  const withoutPoll = (files: Set<string>) => new Set([...files].filter((file) => !JOB_POLL.includes(file)));
  const unexpectedIdle = [...idle].filter((file) => !JOB_POLL.includes(file));
  if (unexpectedIdle.length > 0) console.warn(`Also run when idle: ${unexpectedIdle.join(', ')}`);

  const seller = await signInSeller(app, { slug: 'acme' });
  await built.ctx.db.insert(platformSubscriptions).values({
    userId: seller.user.id,
    status: 'active',
    tierId: 'enterprise',
    currentPeriodEnd: new Date(Date.now() + 365 * 24 * 3600 * 1000),
  });

  // 1. A holder's `composer update`: packages.json, the package's p2 file and its zip, first on a cold cache (the
  // routes), then again on the warm path (the raw door answers packages.json and the p2 file).
  const widget = await createPackage(app, seller.user, 'acme/widget', [
    { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
  ]);
  const holder = await createHolder(app, seller.user, 'holder@example.com');
  await createGrant(app, holder, widget);
  const HOST = 'acme.composer.localhost';
  const composerGet = async (pathname: string) => {
    const answer = await requestOnHost(app, HOST, pathname, { basicPassword: holder.token });
    expectStatus(pathname, answer.status, 200);
    return answer;
  };
  let distPath = '';
  const cold = await filesRunBy(async () => {
    await composerGet('/packages.json');
    const p2 = JSON.parse((await composerGet('/p2/acme/widget.json')).body.toString('utf8')) as {
      packages: Record<string, { dist: { url: string } }[]>;
    };
    distPath = new URL(p2.packages['acme/widget']![0]!.dist.url).pathname;
    await composerGet(distPath);
  });
  record('composer update, cold (packages.json, p2 file, zip)', withoutPoll(cold));
  const warm = await filesRunBy(async () => {
    await composerGet('/packages.json');
    await composerGet('/p2/acme/widget.json');
  });
  record('composer update, warm (packages.json, p2 file)', withoutPoll(warm));
  record(
    'composer update, warm with a zip',
    withoutPoll(warm),
    withoutPoll(await filesRunBy(() => composerGet(distPath))),
  );

  // 2. An API v1 license: POST /api/v1/licenses with a token.
  const issued = await seller.client.post('/api/developer/tokens', { name: 'shop', permissions: ['*'] });
  const { token } = (await issued.json()) as CreatedApiToken;
  const license = await filesRunBy(async () => {
    const response = await fetch(new URL('/api/v1/licenses', app.baseUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ packageId: widget.id, email: 'buyer@example.com', sendEmail: false }),
    });
    expectStatus('POST /api/v1/licenses', response.status, 201);
  });
  record('API v1 license creation', withoutPoll(license));

  // 3. A Stripe sale: the buyer's checkout on the seller's host, Stripe's checkout.session.completed, and the job
  // that fulfils it (the license, the e-mail).
  const tiers = await seller.client.put(`/api/repositories/${widget.id}/pricing-tiers`, {
    tiers: [{ name: 'Lifetime', pricingType: 'one_time', updateMonths: 1, priceCents: 1999, currency: 'usd' }],
  });
  const [tier] = (await tiers.json()) as PackagePrice[];
  await seller.client.post('/api/sales/payout-account/onboarding-link', { returnPath: '/dashboard' });
  const [account] = [...stripe.accounts.values()];
  stripe.enableAccount(account!.id);
  const webhookUrl = `${app.baseUrl}/api/stripe/connect-webhook`;
  await stripe.deliver(webhookUrl, stripe.event('account.updated', account!, { account: account!.id }));
  await settleProviderEvents(app);
  let sessionId = '';
  const checkout = await filesRunBy(async () => {
    const started = await requestOnHost(app, HOST, '/api/purchase/checkout', {
      method: 'POST',
      body: JSON.stringify({ packageId: widget.id, tierId: tier!.id, email: 'buyer2@example.com' }),
    });
    expectStatus('POST /api/purchase/checkout', started.status, 200);
    sessionId = (JSON.parse(started.body.toString('utf8')) as StartCheckoutResponse).sessionId;
  });
  const paid = stripe.completeCheckout(sessionId);
  const sale = await filesRunBy(async () => {
    const event = stripe.event('checkout.session.completed', paid.session, { account: account!.id });
    expectStatus('the Connect webhook', (await stripe.deliver(webhookUrl, event)).status, 200);
    await settleProviderEvents(app);
  });
  record('Stripe sale (checkout, webhook, fulfilment job)', checkout, sale);

  // 4. A package sync: the seller adds a package from the embedded code host, and the sync job runs.
  await createPackageRepository(path.join(config.gitReposDir, 'acme', 'tools.git'), {
    name: 'acme/tools',
    tags: ['v1.0.0'],
    bare: true,
  });
  const sync = await filesRunBy(async () => {
    const created = await seller.client.post('/api/repositories', {
      githubRepoId: 'acme/tools.git',
      packageName: 'acme/tools',
    });
    expectStatus('POST /api/repositories', created.status, 201);
    await waitForSync(app, ((await created.json()) as { id: string }).id);
  });
  record('package sync (add the package, sync job)', sync);

  for (const [name, files] of journeys) {
    const byFolder = new Map<string, string[]>();
    for (const file of [...files].sort()) {
      const relative = path.relative(ROOT, file);
      const folder = path.dirname(relative);
      byFolder.set(folder, [...(byFolder.get(folder) ?? []), path.basename(relative)]);
    }
    console.log(`\n${name}: ${files.size} files`);
    for (const [folder, names] of byFolder) console.log(`  ${folder}/ ${names.join(' ')}`);
  }
} finally {
  await built.close();
  await stripe.close();
  await rm(dataDir, { recursive: true, force: true });
  session.disconnect();
}

import { describe, expect, it } from 'vitest';
import {
  createGrant,
  createHolder,
  createPackage,
  createSeller,
  jsonOf,
  requestOnHost,
} from '../../../../test/composer/repository-fixtures.js';
import { createTestUser, type TestUser } from '../../../../test/support/sessions.js';
import { testAppAroundTests } from '../../../../test/support/test-app.js';
import type { PackagesJson } from '../../../contract/composer.js';
import { platformSubscriptions } from '../../db/schema/index.js';
import { DAY_MS } from '../../lib/clock.js';

// A seller's own subscription decides whether their repository serves (README, "Billing"): after the seller loses
// access, license holders keep installing for 7 days with a warning in Composer's output, then every door closes.
// Admins' packages are never affected. The test clock reads 2026-03-01 12:00 UTC.

const NOW = new Date('2026-03-01T12:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY_MS);

const started = testAppAroundTests();

type Subscription = Omit<typeof platformSubscriptions.$inferInsert, 'userId'>;

/** A seller (or admin) with the given subscription, one package with a tag, and a holder licensed for it. */
async function repository(
  slug: string,
  subscription: Subscription | undefined,
  userType: 'seller' | 'admin' = 'seller',
) {
  const owner: TestUser =
    userType === 'admin'
      ? await createTestUser(started.app, { userType: 'admin', slug })
      : await createSeller(started.app, slug);
  if (subscription)
    await started.app.ctx.db.insert(platformSubscriptions).values({ userId: owner.id, ...subscription });
  const name = `${slug}/widget`;
  const pkg = await createPackage(started.app, owner, name, [
    { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
  ]);
  const holder = await createHolder(started.app, owner, `holder@${slug}.example`);
  await createGrant(started.app, holder, pkg);
  const host = `${slug}.composer.localhost`;
  const get = (path: string) => requestOnHost(started.app, host, path, { token: holder.token });
  return {
    name,
    packagesJson: get('/packages.json'),
    metadata: get(`/p2/${name}.json`),
    download: get(`/api/composer/download/${name}/v1.0.0`),
  };
}

const trialEnded = (days: number): Subscription => ({
  status: 'trial',
  tierId: 'starter',
  trialStartedAt: daysAgo(days + 14),
  trialEndsAt: daysAgo(days),
});

describe('a lapsed seller’s repository', () => {
  it('still serves 3 days after the trial ended, warning the holder until when', async () => {
    const { name, packagesJson, metadata, download } = await repository('grace-trial', trialEnded(3));
    const index = jsonOf<PackagesJson>(await packagesJson);
    expect(index['available-packages']).toEqual([name]);
    expect(index.warnings).toEqual([
      {
        message:
          "This repository's subscription has lapsed; access continues until 2026-03-05. Contact the seller to keep access after that.",
        versions: '*',
      },
    ]);
    expect((await metadata).status).toBe(200);
    expect((await download).status).toBe(200);
  });

  it('stops serving 8 days after the trial ended: absent from the index, 404 metadata, 403 download', async () => {
    const { packagesJson, metadata, download } = await repository('closed-trial', trialEnded(8));
    const message =
      "This repository's subscription has lapsed and access ended on 2026-02-28. Contact the seller to restore access.";
    const index = jsonOf<PackagesJson>(await packagesJson);
    expect(index['available-packages']).toEqual([]);
    expect(index.warnings).toEqual([{ message, versions: '*' }]);
    const p2 = await metadata;
    expect(p2.status).toBe(404);
    const refused = await download;
    expect(refused.status).toBe(403);
    expect(jsonOf(refused)).toMatchObject({ message, status: 403, warnings: [{ message, versions: '*' }] });
  });

  it('counts the grace of a failed payment from the failure', async () => {
    const inactive = (days: number): Subscription => ({
      status: 'inactive',
      tierId: 'growth',
      currentPeriodEnd: new Date(NOW.getTime() + 20 * DAY_MS),
      accessEndedAt: daysAgo(days),
    });
    const grace = await repository('grace-inactive', inactive(6));
    expect(jsonOf<PackagesJson>(await grace.packagesJson).warnings?.[0]?.message).toContain(
      'continues until 2026-03-02',
    );
    expect((await grace.download).status).toBe(200);
    const closed = await repository('closed-inactive', inactive(7));
    expect((await closed.metadata).status).toBe(404);
    expect((await closed.download).status).toBe(403);
  });

  it('closes 7 days after a cancelled period ended, even before Stripe says so', async () => {
    const ended: Subscription = {
      status: 'active',
      tierId: 'growth',
      currentPeriodEnd: daysAgo(8),
      cancelAtPeriodEnd: true,
    };
    const { metadata, download } = await repository('closed-cancelled', ended);
    expect((await metadata).status).toBe(404);
    expect((await download).status).toBe(403);
  });

  it('serves without a warning while the plan is active or the trial runs', async () => {
    const active = await repository('paying', {
      status: 'active',
      tierId: 'growth',
      currentPeriodEnd: daysAgo(2), // renewing: Stripe moves the date when the renewal is paid
    });
    const running = await repository('trying', trialEnded(-3));
    for (const each of [active, running]) {
      const index = jsonOf<PackagesJson>(await each.packagesJson);
      expect(index['available-packages']).toEqual([each.name]);
      expect(index.warnings).toBeUndefined();
      expect((await each.metadata).status).toBe(200);
      expect((await each.download).status).toBe(200);
    }
  });

  it('never closes an admin’s packages', async () => {
    const admin = await repository(
      'platform',
      { status: 'expired', tierId: 'starter', accessEndedAt: daysAgo(60) },
      'admin',
    );
    expect(jsonOf<PackagesJson>(await admin.packagesJson)['available-packages']).toEqual([admin.name]);
    expect((await admin.metadata).status).toBe(200);
    expect((await admin.download).status).toBe(200);
  });
});

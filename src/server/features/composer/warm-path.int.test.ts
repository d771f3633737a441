import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGrant,
  createHolder,
  createPackage,
  createProduct,
  createProductGrant,
  createSeller,
  type FixtureHolder,
  jsonOf,
  requestOnHost,
} from '../../../../test/composer/repository-fixtures.js';
import { giveActivePlan } from '../../../../test/support/packages.js';
import { eventually, startListeningSecondProcess } from '../../../../test/support/second-process.js';
import { sellerRepositoryAroundTests } from '../../../../test/support/seller-repository.js';
import { type TestApp, testDatabaseKind } from '../../../../test/support/test-app.js';
import type { P2File, PackagesJson } from '../../../contract/composer.js';
import { CHANGE_FEED_APPLICATION_NAME } from '../../adapters/change-feed/postgres-change-feed.js';
import {
  grants,
  holderTokens,
  packages,
  packageVersions,
  platformSubscriptions,
  productPackages,
} from '../../db/schema/index.js';
import { DAY_MS } from '../../lib/clock.js';
import { generateToken, sha256Hex } from '../../lib/crypto.js';

// The warm path (DESIGN, "The warm path of the Composer repository"): once a token's view and a package's metadata
// are held, every change that decides access is seen by the very next request, whoever wrote it (these tests write
// straight to the database, as any writer may), and time rules turn at the request's time. On PostgreSQL a second
// process sharing the database sees a change through the change feed, and falls back to the database while its feed
// is down. The test clock reads 2026-03-01 12:00 UTC.

const NOW = new Date('2026-03-01T12:00:00Z');
const HOST = 'warm.composer.localhost';

const repository = sellerRepositoryAroundTests('warm');

let counter = 0;
async function licensed(options: Parameters<typeof createGrant>[3] = {}) {
  counter++;
  const name = `warm/lib-${counter}`;
  const pkg = await createPackage(repository.app, repository.seller, name, [
    { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
    { version: 'dev-main', kind: 'branch', releasedAt: '2026-02-25T10:00:00Z' },
  ]);
  const holder = await createHolder(repository.app, repository.seller, `warm-${counter}@example.com`);
  const grant = await createGrant(repository.app, holder, pkg, options);
  return { name, pkg, holder, grant };
}

/** Writes tag v1.1.0 of the package, released 2026-02-27, straight to the database as another writer's sync would. */
async function addTagV110(
  packageId: string,
  fields: Pick<typeof packageVersions.$inferInsert, 'commit' | 'composerJson'> &
    Partial<typeof packageVersions.$inferInsert>,
) {
  await repository.app.ctx.db.insert(packageVersions).values({
    packageId,
    version: 'v1.1.0',
    normalizedVersion: '1.1.0.0',
    kind: 'tag',
    reference: 'v1.1.0',
    releasedAt: new Date('2026-02-27T10:00:00Z'),
    publishedAt: new Date('2026-02-27T10:00:00Z'),
    ...fields,
  });
}

type Door = { packagesJson: PackagesJson; metadataStatus: number; metadata?: P2File };

/** What the holder sees at the two metadata doors, asked twice so that the second answer comes from what is held. */
async function warmLook(target: TestApp, holder: FixtureHolder, name: string): Promise<Door> {
  await look(target, holder, name);
  return look(target, holder, name);
}

async function look(target: TestApp, holder: FixtureHolder, name: string): Promise<Door> {
  const index = await requestOnHost(target, HOST, '/packages.json', { token: holder.token });
  expect(index.status).toBe(200);
  const metadata = await requestOnHost(target, HOST, `/p2/${name}.json`, { token: holder.token });
  return {
    packagesJson: jsonOf<PackagesJson>(index),
    metadataStatus: metadata.status,
    metadata: metadata.status === 200 ? jsonOf<P2File>(metadata) : undefined,
  };
}

function download(target: TestApp, holder: FixtureHolder, name: string, version: string) {
  return requestOnHost(target, HOST, `/api/composer/download/${name}/${version}`, { token: holder.token });
}

/** The warnings of the p2 file's answer (a refusal says why there). */
async function p2Warnings(target: TestApp, holder: FixtureHolder, name: string): Promise<string[] | undefined> {
  const response = await requestOnHost(target, HOST, `/p2/${name}.json`, { token: holder.token });
  return jsonOf<{ warnings?: { message: string }[] }>(response).warnings?.map((warning) => warning.message);
}

function isServed(door: Door, name: string): boolean {
  return door.metadataStatus === 200 && door.packagesJson['available-packages'].includes(name);
}

describe('a change is seen by the very next request', () => {
  it('refuses a license revoked after its metadata was served', async () => {
    const { name, holder, grant } = await licensed();
    expect(isServed(await warmLook(repository.app, holder, name), name)).toBe(true);
    await repository.app.ctx.db.update(grants).set({ status: 'revoked' }).where(eq(grants.id, grant.id));
    const after = await look(repository.app, holder, name);
    expect(after.metadataStatus).toBe(404);
    expect(await p2Warnings(repository.app, holder, name)).toEqual([`Your license for ${name} has been revoked.`]);
  });

  it('refuses a license whose expiry the seller moved into the past', async () => {
    const { name, holder, grant } = await licensed({ expiresAt: new Date(NOW.getTime() + 30 * DAY_MS) });
    expect(isServed(await warmLook(repository.app, holder, name), name)).toBe(true);
    await repository.app.ctx.db
      .update(grants)
      .set({ expiresAt: new Date(NOW.getTime() - DAY_MS) })
      .where(eq(grants.id, grant.id));
    expect(isServed(await look(repository.app, holder, name), name)).toBe(false);
  });

  it('serves a package granted after the holder’s view was read', async () => {
    const { holder } = await licensed();
    const extra = await createPackage(repository.app, repository.seller, `warm/extra-${counter}`, [
      { version: 'v2.0.0', releasedAt: '2026-01-20T10:00:00Z' },
    ]);
    expect(isServed(await warmLook(repository.app, holder, extra.name), extra.name)).toBe(false);
    await createGrant(repository.app, holder, extra);
    expect(isServed(await look(repository.app, holder, extra.name), extra.name)).toBe(true);
  });

  it('refuses a package the seller deactivated', async () => {
    const { name, holder, pkg } = await licensed();
    expect(isServed(await warmLook(repository.app, holder, name), name)).toBe(true);
    await repository.app.ctx.db.update(packages).set({ isActive: false }).where(eq(packages.id, pkg.id));
    const after = await look(repository.app, holder, name);
    expect(after.metadataStatus).toBe(404);
    expect(await p2Warnings(repository.app, holder, name)).toEqual([
      `${name} is no longer available: the seller has deactivated it.`,
    ]);
  });

  it('answers 401 to a revoked token and serves the holder’s other token', async () => {
    const { name, holder } = await licensed();
    const newToken = generateToken('pgc');
    await repository.app.ctx.db
      .insert(holderTokens)
      .values({ customerId: holder.id, name: 'CI', kind: 'ci', tokenHash: sha256Hex(newToken) });
    const other = { ...holder, token: newToken };
    expect(isServed(await warmLook(repository.app, holder, name), name)).toBe(true);
    expect(isServed(await warmLook(repository.app, other, name), name)).toBe(true);
    // The warm door remembers the reading of this Authorization header by now (composer-credentials.ts): the token
    // and its hash, never whether it works, so the next request after the revocation is refused all the same.
    await repository.app.ctx.db
      .update(holderTokens)
      .set({ revokedAt: NOW })
      .where(eq(holderTokens.id, holder.tokenId!));
    const old = await requestOnHost(repository.app, HOST, `/p2/${name}.json`, { token: holder.token });
    expect(old.status).toBe(401);
    expect(old.headers['www-authenticate']).toBe('Basic realm="Packgate"');
    expect(jsonOf(old).message).toBe('This token was revoked on 2026-03-01 and no longer works.');
    expect(isServed(await look(repository.app, other, name), name)).toBe(true);
  });

  it('sees a package join and leave a product the holder is licensed for', async () => {
    const { holder } = await licensed();
    const joining = await createPackage(repository.app, repository.seller, `warm/joining-${counter}`, [
      { version: 'v1.0.0', releasedAt: '2026-01-20T10:00:00Z' },
    ]);
    const product = await createProduct(repository.app, repository.seller, `Suite ${counter}`, []);
    await createProductGrant(repository.app, holder, product);
    expect(isServed(await warmLook(repository.app, holder, joining.name), joining.name)).toBe(false);
    await repository.app.ctx.db.insert(productPackages).values({ productId: product.id, packageId: joining.id });
    expect(isServed(await look(repository.app, holder, joining.name), joining.name)).toBe(true);
    expect(isServed(await look(repository.app, holder, joining.name), joining.name)).toBe(true);
    await repository.app.ctx.db.delete(productPackages).where(eq(productPackages.packageId, joining.id));
    const after = await look(repository.app, holder, joining.name);
    expect(after.metadataStatus).toBe(404);
    expect(after.packagesJson['available-packages']).not.toContain(joining.name);
  });

  it('closes the repository once the seller’s subscription lapsed past its grace', async () => {
    const lapsing = await createSeller(repository.app, `lapsing-${randomBytes(3).toString('hex')}`);
    const host = `${lapsing.slug}.composer.localhost`;
    const name = `${lapsing.slug}/lib`;
    const pkg = await createPackage(repository.app, lapsing, name, [
      { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
    ]);
    const holder = await createHolder(repository.app, lapsing, 'lapsing@example.com');
    await createGrant(repository.app, holder, pkg);
    await giveActivePlan(repository.app, lapsing.id, new Date(NOW.getTime() + 20 * DAY_MS), 'growth');
    const get = (urlPath: string) => requestOnHost(repository.app, host, urlPath, { token: holder.token });
    await get(`/p2/${name}.json`);
    expect((await get(`/p2/${name}.json`)).status).toBe(200);
    await repository.app.ctx.db
      .update(platformSubscriptions)
      .set({ status: 'inactive', accessEndedAt: new Date(NOW.getTime() - 8 * DAY_MS) })
      .where(eq(platformSubscriptions.userId, lapsing.id));
    expect((await get(`/p2/${name}.json`)).status).toBe(404);
    expect(jsonOf<PackagesJson>(await get('/packages.json'))['available-packages']).toEqual([]);
  });

  it('lists a version synced after the metadata was rendered', async () => {
    const { name, holder, pkg } = await licensed();
    const before = await warmLook(repository.app, holder, name);
    expect(before.metadata?.packages[name]?.map((version) => version.version)).toEqual(['v1.0.0']);
    await addTagV110(pkg.id, { commit: 'b'.repeat(40), composerJson: { name, require: { php: '>=8.1' } } });
    const after = await look(repository.app, holder, name);
    expect(after.metadata?.packages[name]?.map((version) => version.version)).toEqual(['v1.1.0', 'v1.0.0']);
  });

  it('refuses the download of a license revoked after a download was served', async () => {
    const { name, holder, grant } = await licensed();
    for (let attempt = 0; attempt < 2; attempt++) {
      expect((await download(repository.app, holder, name, 'v1.0.0')).status).toBe(200);
    }
    await repository.app.ctx.db.update(grants).set({ status: 'revoked' }).where(eq(grants.id, grant.id));
    const refused = await download(repository.app, holder, name, 'v1.0.0');
    expect(refused.status).toBe(403);
    expect(jsonOf<{ message: string }>(refused).message).toBe(`Your license for ${name} has been revoked.`);
  });

  it('downloads a version synced after the package’s archives were held', async () => {
    const { name, holder, pkg } = await licensed();
    expect((await download(repository.app, holder, name, 'v1.0.0')).status).toBe(200);
    expect((await download(repository.app, holder, name, 'v1.1.0')).status).toBe(404);
    const [held] = await repository.app.ctx.db
      .select()
      .from(packageVersions)
      .where(eq(packageVersions.packageId, pkg.id));
    await addTagV110(pkg.id, {
      commit: 'c'.repeat(40),
      composerJson: { name },
      distKey: held!.distKey,
      distSha1: held!.distSha1,
      distSize: held!.distSize,
    });
    expect((await download(repository.app, holder, name, 'v1.1.0')).status).toBe(200);
  });

  it('refuses metadata once the last allowed download was taken', async () => {
    const { name, holder } = await licensed({ downloadLimit: 1 });
    expect(isServed(await warmLook(repository.app, holder, name), name)).toBe(true);
    const download = await requestOnHost(repository.app, HOST, `/api/composer/download/${name}/v1.0.0`, {
      token: holder.token,
    });
    expect(download.status).toBe(200);
    expect(isServed(await look(repository.app, holder, name), name)).toBe(false);
  });

  it('ends access at the expiry time, with nothing written, from what it holds', async () => {
    const { name, holder } = await licensed({ expiresAt: new Date(NOW.getTime() + 60_000) });
    expect(isServed(await warmLook(repository.app, holder, name), name)).toBe(true);
    repository.app.clock.advance(2 * 60_000);
    try {
      expect(isServed(await look(repository.app, holder, name), name)).toBe(false);
    } finally {
      repository.app.clock.set(NOW);
    }
  });

  it('answers a fast plain 404 for an unknown package, and still asks for a credential first', async () => {
    const { name, holder } = await licensed();
    await warmLook(repository.app, holder, name);
    const unknown = await requestOnHost(repository.app, HOST, '/p2/warm/nothing-here.json', { token: holder.token });
    expect(unknown.status).toBe(404);
    expect(jsonOf(unknown).warnings).toBeUndefined();
    const anonymous = await requestOnHost(repository.app, HOST, `/p2/${name}.json`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Basic realm="Packgate"');
  });
});

// Two processes sharing one PostgreSQL: a second app on the first one's database, as a second process would be.
if (testDatabaseKind() === 'postgres') {
  describe('two processes sharing one PostgreSQL', () => {
    let second: TestApp;

    beforeAll(async () => {
      second = await startListeningSecondProcess(repository.app);
    });

    afterAll(async () => {
      await second?.close();
    });

    it('refuses on one process a license revoked through the other', async () => {
      const { name, holder, grant } = await licensed();
      expect(isServed(await warmLook(second, holder, name), name)).toBe(true);
      await repository.app.ctx.db.update(grants).set({ status: 'revoked' }).where(eq(grants.id, grant.id));
      await eventually('the other process refuses the revoked license', async () => {
        return (await look(second, holder, name)).metadataStatus === 404;
      });
      expect(isServed(await look(second, holder, name), name)).toBe(false);
    });

    it('refuses on one process a download of a license revoked through the other', async () => {
      const { name, holder, grant } = await licensed();
      for (let attempt = 0; attempt < 2; attempt++) {
        expect((await download(second, holder, name, 'v1.0.0')).status).toBe(200);
      }
      await repository.app.ctx.db.update(grants).set({ status: 'revoked' }).where(eq(grants.id, grant.id));
      await eventually('the other process refuses the download', async () => {
        return (await download(second, holder, name, 'v1.0.0')).status === 403;
      });
    });

    it('goes to the database while its change feed is down, and holds again once it is back', async () => {
      const { name, holder, grant } = await licensed();
      expect(isServed(await warmLook(second, holder, name), name)).toBe(true);
      const terminated = await repository.app.ctx.db.execute(sql`
        select pg_terminate_backend(pid) as terminated from pg_stat_activity
        where datname = current_database() and application_name = ${CHANGE_FEED_APPLICATION_NAME}`);
      // Each process's access feed, and its job runner's feed of job ends (the same application name) along with it.
      expect((terminated as unknown as { rows: unknown[] }).rows.length).toBeGreaterThanOrEqual(2);
      await repository.app.ctx.db.update(grants).set({ status: 'revoked' }).where(eq(grants.id, grant.id));
      await eventually('the process without its feed refuses the revoked license', async () => {
        return (await look(second, holder, name)).metadataStatus === 404;
      });

      // The feed reconnects by itself; from then on a change through the other process is seen again.
      await eventually('the change feed listens again', () => second.ctx.composerAccess.isTrusted);
      await repository.app.ctx.db.update(grants).set({ status: 'active' }).where(eq(grants.id, grant.id));
      await eventually('the reinstated license is served', async () =>
        isServed(await look(second, holder, name), name),
      );
      await warmLook(second, holder, name);
      await repository.app.ctx.db.update(grants).set({ status: 'revoked' }).where(eq(grants.id, grant.id));
      await eventually('the revoked license is refused again', async () => {
        return (await look(second, holder, name)).metadataStatus === 404;
      });
    });
  });
}

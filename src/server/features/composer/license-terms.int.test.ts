import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  createGrant,
  createHolder,
  createPackage,
  createProduct,
  createProductGrant,
  createSeller,
  jsonOf,
  requestOnHost,
} from '../../../../test/composer/repository-fixtures.js';
import { sellerRepositoryAroundTests } from '../../../../test/support/seller-repository.js';
import type { P2File, PackagesJson } from '../../../contract/composer.js';
import { downloads, productPackages } from '../../db/schema/index.js';

// What a license covers at the Composer doors (issue 31): a version constraint and a minimum stability per license,
// licenses for products (every package in the product as it is at each request), and the union of several licenses
// for one package. The test clock reads 2026-03-01 12:00 UTC.

const HOST = 'terms.composer.localhost';

const repository = sellerRepositoryAroundTests('terms');

let counter = 0;
/** A package tagged v1.0.0, v1.1.0, v2.0.0 and 2.1.0-beta1, with a main branch. */
async function releasedPackage() {
  counter++;
  return createPackage(repository.app, repository.seller, `terms/lib-${counter}`, [
    { version: 'v1.0.0', releasedAt: '2026-01-05T10:00:00Z' },
    { version: 'v1.1.0', releasedAt: '2026-01-20T10:00:00Z' },
    { version: 'v2.0.0', releasedAt: '2026-02-10T10:00:00Z' },
    { version: '2.1.0-beta1', normalizedVersion: '2.1.0.0-beta1', releasedAt: '2026-02-20T10:00:00Z' },
    { version: 'dev-main', kind: 'branch', releasedAt: '2026-02-25T10:00:00Z' },
  ]);
}

async function holder() {
  return createHolder(repository.app, repository.seller, `terms-holder-${++counter}@example.com`);
}

async function p2(token: string, name: string, dev = false) {
  const response = await requestOnHost(repository.app, HOST, `/p2/${name}${dev ? '~dev' : ''}.json`, { token });
  const body = response.status === 200 ? jsonOf<P2File>(response) : undefined;
  return {
    status: response.status,
    versions: body?.packages[name]?.map((version) => version.version),
    warnings: body?.warnings?.map((warning) => warning.message),
  };
}

function download(token: string, name: string, version: string) {
  return requestOnHost(repository.app, HOST, `/api/composer/download/${name}/${encodeURIComponent(version)}`, {
    token,
  });
}

const portal = () => `http://${HOST}:${repository.app.port}/portal`;

describe('a version constraint', () => {
  it('lists only the versions it covers, says which newer one exists, and refuses the others’ zips', async () => {
    const pkg = await releasedPackage();
    const licensee = await holder();
    await createGrant(repository.app, licensee, pkg, { versionConstraint: '^1.0' });

    const tags = await p2(licensee.token, pkg.name);
    expect(tags.versions).toEqual(['v1.1.0', 'v1.0.0']);
    expect(tags.warnings).toEqual([
      `${pkg.name} v2.0.0 is available, but your license covers ^1.0. Composer installs the newest version your license covers; to use v2.0.0, upgrade your license at ${portal()}`,
    ]);
    // A branch is no numbered version: a range does not reach dev-main.
    expect((await p2(licensee.token, pkg.name, true)).versions).toEqual([]);

    expect((await download(licensee.token, pkg.name, 'v1.1.0')).status).toBe(200);
    const refused = await download(licensee.token, pkg.name, 'v2.0.0');
    expect(refused.status).toBe(403);
    expect(jsonOf<{ message: string }>(refused).message).toBe(
      `Your license for ${pkg.name} covers ^1.0; v2.0.0 is outside it. Composer installs the newest version your license covers when you run composer update ${pkg.name}; to use v2.0.0, upgrade your license at ${portal()}`,
    );
    const latest = await download(licensee.token, pkg.name, 'latest');
    expect(latest.headers['content-disposition']).toContain('1.1.0');

    // The warning concerns this package alone: packages.json, which every project reads, says nothing of it.
    const index = jsonOf<PackagesJson>(
      await requestOnHost(repository.app, HOST, '/packages.json', { token: licensee.token }),
    );
    expect(index['available-packages']).toEqual([pkg.name]);
    expect(index.warnings).toBeUndefined();
  });

  it('answers its warning in full every time, never 304, so Composer prints it at each command', async () => {
    const pkg = await releasedPackage();
    const licensee = await holder();
    await createGrant(repository.app, licensee, pkg, { versionConstraint: '^1.0' });
    const first = await requestOnHost(repository.app, HOST, `/p2/${pkg.name}.json`, { token: licensee.token });
    const again = await requestOnHost(repository.app, HOST, `/p2/${pkg.name}.json`, {
      token: licensee.token,
      headers: { 'if-modified-since': String(first.headers['last-modified']) },
    });
    expect(again.status).toBe(200);
    expect(jsonOf<P2File>(again).warnings).toHaveLength(1);
  });
});

describe('a minimum stability', () => {
  it('keeps a stable license from ever seeing 2.1.0-beta1, or a branch', async () => {
    const pkg = await releasedPackage();
    const licensee = await holder();
    await createGrant(repository.app, licensee, pkg, { minimumStability: 'stable' });
    const tags = await p2(licensee.token, pkg.name);
    expect(tags.versions).toEqual(['v2.0.0', 'v1.1.0', 'v1.0.0']);
    expect(tags.warnings).toBeUndefined();
    expect((await p2(licensee.token, pkg.name, true)).versions).toEqual([]);
    expect((await download(licensee.token, pkg.name, '2.1.0-beta1')).status).toBe(403);
    expect(jsonOf<{ message: string }>(await download(licensee.token, pkg.name, 'dev-main')).message).toContain(
      'covers every version (stable releases only); dev-main is outside it',
    );
  });

  it('lets a beta license see the beta', async () => {
    const pkg = await releasedPackage();
    const licensee = await holder();
    await createGrant(repository.app, licensee, pkg, { versionConstraint: '^2.0', minimumStability: 'beta' });
    expect((await p2(licensee.token, pkg.name)).versions).toEqual(['2.1.0-beta1', 'v2.0.0']);
    expect((await download(licensee.token, pkg.name, '2.1.0-beta1')).status).toBe(200);
  });
});

describe('several licenses for one package', () => {
  it('shows the union of what they cover, and counts a download against one that allows the version', async () => {
    const pkg = await releasedPackage();
    const licensee = await holder();
    const direct = await createGrant(repository.app, licensee, pkg, { versionConstraint: '^1.0', downloadLimit: 10 });
    const product = await createProduct(repository.app, repository.seller, `Suite ${counter}`, [pkg]);
    const bundle = await createProductGrant(repository.app, licensee, product, {
      versionConstraint: '^2.0',
      minimumStability: 'stable',
    });

    const tags = await p2(licensee.token, pkg.name);
    expect(tags.versions).toEqual(['v2.0.0', 'v1.1.0', 'v1.0.0']);
    expect(tags.warnings).toBeUndefined();

    expect((await download(licensee.token, pkg.name, 'v1.0.0')).status).toBe(200);
    expect((await download(licensee.token, pkg.name, 'v2.0.0')).status).toBe(200);
    expect((await download(licensee.token, pkg.name, '2.1.0-beta1')).status).toBe(403);
    // Counted after the answer when no limit decides: wait for both rows, each under the license that allowed it.
    await expect
      .poll(
        async () =>
          (await repository.app.ctx.db.select().from(downloads).where(eq(downloads.packageId, pkg.id))).length,
      )
      .toBe(2);
    const counted = await repository.app.ctx.db.select().from(downloads).where(eq(downloads.packageId, pkg.id));
    expect(Object.fromEntries(counted.map((row) => [row.version, row.grantId]))).toEqual({
      'v1.0.0': direct.id,
      'v2.0.0': bundle.id,
    });
  });

  it('counts a limited product license’s downloads against the package downloaded, up to its limit', async () => {
    const pkg = await releasedPackage();
    const licensee = await holder();
    const product = await createProduct(repository.app, repository.seller, `Limited ${counter}`, [pkg]);
    const bundle = await createProductGrant(repository.app, licensee, product, { downloadLimit: 1 });
    expect((await download(licensee.token, pkg.name, 'v1.0.0')).status).toBe(200);
    const [row] = await repository.app.ctx.db.select().from(downloads).where(eq(downloads.grantId, bundle.id));
    expect(row?.packageId).toBe(pkg.id);
    expect((await download(licensee.token, pkg.name, 'v1.1.0')).status).toBe(403);
  });

  it('keeps serving through the other license when one is revoked', async () => {
    const pkg = await releasedPackage();
    const licensee = await holder();
    await createGrant(repository.app, licensee, pkg, { status: 'revoked' });
    const product = await createProduct(repository.app, repository.seller, `Suite ${counter}`, [pkg]);
    await createProductGrant(repository.app, licensee, product, { versionConstraint: '^1.0' });
    const tags = await p2(licensee.token, pkg.name);
    expect(tags.versions).toEqual(['v1.1.0', 'v1.0.0']);
    expect(tags.warnings?.join(' ')).not.toContain('revoked');
  });
});

describe('a license for a product', () => {
  it('covers every package in the product, one added later, and not one removed from it', async () => {
    const first = await releasedPackage();
    const second = await releasedPackage();
    const later = await releasedPackage();
    const licensee = await holder();
    const product = await createProduct(repository.app, repository.seller, `Bundle ${counter}`, [first, second]);
    await createProductGrant(repository.app, licensee, product);

    const index = async () =>
      jsonOf<PackagesJson>(await requestOnHost(repository.app, HOST, '/packages.json', { token: licensee.token }))[
        'available-packages'
      ];
    expect(await index()).toEqual([first.name, second.name]);
    expect((await p2(licensee.token, later.name)).status).toBe(404);

    await repository.app.ctx.db.insert(productPackages).values({ productId: product.id, packageId: later.id });
    expect(await index()).toEqual([first.name, second.name, later.name]);
    expect((await p2(licensee.token, later.name)).versions).toEqual(['2.1.0-beta1', 'v2.0.0', 'v1.1.0', 'v1.0.0']);
    expect((await download(licensee.token, later.name, 'v2.0.0')).status).toBe(200);

    await repository.app.ctx.db.delete(productPackages).where(eq(productPackages.packageId, second.id));
    expect(await index()).toEqual([first.name, later.name]);
    const removed = await p2(licensee.token, second.name);
    expect(removed.status).toBe(404);
    expect((await download(licensee.token, second.name, 'v1.0.0')).status).toBe(404);
  });

  it('covers nothing of another seller, even when a product names their package', async () => {
    const other = await createSeller(repository.app, `terms-other-${counter}`);
    const foreign = await createPackage(repository.app, other, `terms-other-${counter}/lib`, [
      { version: 'v1.0.0', releasedAt: '2026-01-05T10:00:00Z' },
    ]);
    const licensee = await holder();
    const product = await createProduct(repository.app, repository.seller, `Mixed ${counter}`, [foreign]);
    await createProductGrant(repository.app, licensee, product);
    const index = jsonOf<PackagesJson>(
      await requestOnHost(repository.app, HOST, '/packages.json', { token: licensee.token }),
    );
    expect(index['available-packages']).toEqual([]);
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGrant,
  createHolder,
  createPackage,
  createProduct,
  createProductGrant,
  requestOnHost,
} from '../../../../test/composer/repository-fixtures.js';
import { eventually, startListeningSecondProcess } from '../../../../test/support/second-process.js';
import { sellerRepositoryAroundTests } from '../../../../test/support/seller-repository.js';
import { type TestApp, testDatabaseKind } from '../../../../test/support/test-app.js';
import { holderTokens, productPackages } from '../../db/schema/index.js';

// The warm path holds a view per named token and drops it on any write that changes it (issues 31 and 32): a token
// revoked, a package joining a product the holder is licensed for. On one process the very next request sees the
// write; on PostgreSQL another process sharing the database sees it through the change feed. The test clock reads
// 2026-03-01 12:00 UTC.

const NOW = new Date('2026-03-01T12:00:00Z');
const HOST = 'across.composer.localhost';

const repository = sellerRepositoryAroundTests('across');

let counter = 0;
async function holderOf(pkg: { id: string }, product?: { id: string }) {
  const holder = await createHolder(repository.app, repository.seller, `across-${++counter}@example.com`);
  if (product) await createProductGrant(repository.app, holder, product);
  else await createGrant(repository.app, holder, pkg);
  return holder;
}

async function newPackage() {
  return createPackage(repository.app, repository.seller, `across/lib-${++counter}`, [
    { version: 'v1.0.0', releasedAt: '2026-01-05T10:00:00Z' },
  ]);
}

/** Status of the p2 file, asked twice so that the second answer comes from what the process holds. */
async function warmStatus(target: TestApp, token: string, name: string): Promise<number> {
  await requestOnHost(target, HOST, `/p2/${name}.json`, { token });
  return (await requestOnHost(target, HOST, `/p2/${name}.json`, { token })).status;
}

const status = async (target: TestApp, token: string, name: string) =>
  (await requestOnHost(target, HOST, `/p2/${name}.json`, { token })).status;

describe('on one process', () => {
  it('refuses a token at the first request after it was revoked', async () => {
    const pkg = await newPackage();
    const holder = await holderOf(pkg);
    expect(await warmStatus(repository.app, holder.token, pkg.name)).toBe(200);
    await repository.app.ctx.db
      .update(holderTokens)
      .set({ revokedAt: NOW })
      .where(eq(holderTokens.id, holder.tokenId!));
    expect(await status(repository.app, holder.token, pkg.name)).toBe(401);
  });

  it('serves a package at the first request after it joined the holder’s product', async () => {
    const pkg = await newPackage();
    const product = await createProduct(repository.app, repository.seller, `Across ${counter}`, []);
    const holder = await holderOf(pkg, product);
    expect(await warmStatus(repository.app, holder.token, pkg.name)).toBe(404);
    await repository.app.ctx.db.insert(productPackages).values({ productId: product.id, packageId: pkg.id });
    expect(await status(repository.app, holder.token, pkg.name)).toBe(200);
  });
});

if (testDatabaseKind() === 'postgres') {
  describe('two processes sharing one PostgreSQL', () => {
    let second: TestApp;

    beforeAll(async () => {
      second = await startListeningSecondProcess(repository.app);
    });

    afterAll(async () => {
      await second?.close();
    });

    it('refuses on one process a token revoked through the other', async () => {
      const pkg = await newPackage();
      const holder = await holderOf(pkg);
      expect(await warmStatus(second, holder.token, pkg.name)).toBe(200);
      await repository.app.ctx.db
        .update(holderTokens)
        .set({ revokedAt: NOW })
        .where(eq(holderTokens.id, holder.tokenId!));
      await eventually(
        'the other process refuses the revoked token',
        async () => (await status(second, holder.token, pkg.name)) === 401,
      );
    });

    it('serves on one process a package that joined a product through the other', async () => {
      const pkg = await newPackage();
      const product = await createProduct(repository.app, repository.seller, `Across ${counter}`, []);
      const holder = await holderOf(pkg, product);
      expect(await warmStatus(second, holder.token, pkg.name)).toBe(404);
      await repository.app.ctx.db.insert(productPackages).values({ productId: product.id, packageId: pkg.id });
      await eventually(
        'the other process serves the joined package',
        async () => (await status(second, holder.token, pkg.name)) === 200,
      );
    });
  });
}

import { expect } from 'vitest';
import type { CreatePackageResponse, Package } from '../../src/contract/packages.js';
import { waitForSync } from './packages.js';
import type { SignedIn } from './sessions.js';
import type { TestApp } from './test-app.js';

// Apart from packages.ts, which scripts outside Vitest import too: this one asserts with Vitest's expect.

/**
 * Adds a package as the seller's dashboard does, with this request body (repository, connection, names, state),
 * expects it created and waits for its background syncs. Returns the created package.
 */
export async function addPackageFromDashboard(
  app: TestApp,
  seller: Pick<SignedIn, 'client'>,
  body: Record<string, unknown>,
): Promise<CreatePackageResponse> {
  const response = await seller.client.post('/api/repositories', body);
  const created = (await response.json()) as CreatePackageResponse & { message?: string };
  expect(response.status, created.message).toBe(201);
  await waitForSync(app, created.id);
  return created;
}

/** {@link addPackageFromDashboard} for the embedded git server's repository `<name>.git`, active, named as it. */
export function addGitServerPackage(
  app: TestApp,
  seller: Pick<SignedIn, 'client'>,
  name: string,
  description = '',
): Promise<CreatePackageResponse> {
  return addPackageFromDashboard(app, seller, {
    githubRepoId: `${name}.git`,
    fullName: name,
    packageName: name,
    description,
    isActive: true,
  });
}

/**
 * Reads the seller's package over HTTP, as the dashboard does, every 100 ms until its sync is ready and `isDone`
 * holds (by default: it has a version). Throws at a failed sync, or after 60 seconds.
 */
export async function waitForPackageReady(
  seller: Pick<SignedIn, 'client'>,
  packageId: string,
  isDone: (pkg: Package) => boolean = (pkg) => pkg.versionCount > 0,
): Promise<Package> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const pkg = (await (await seller.client.get(`/api/repositories/${packageId}`)).json()) as Package;
    if (pkg.syncStatus === 'failed') throw new Error(`sync failed: ${pkg.syncError}`);
    if (pkg.syncStatus === 'ready' && isDone(pkg)) return pkg;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the package sync did not finish in 60 seconds');
}

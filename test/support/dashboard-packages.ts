import { expect } from 'vitest';
import type { CreatePackageResponse } from '../../src/contract/packages.js';
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

import { beforeAll } from 'vitest';
import { createSeller } from '../composer/repository-fixtures.js';
import type { TestUser } from './sessions.js';
import { type startTestApp, type TestApp, testAppAroundTests } from './test-app.js';

export type SellerRepository = { app: TestApp; seller: TestUser };

/**
 * Starts an app (with `appOptions`) with one seller (slug `slug`) before the tests of the file, or of the describe
 * block it is called in, and closes it after them, for tests of the Composer repository that write their packages and
 * holders as fixtures. The fields are filled in when the tests run, so a test reads them from the returned object, not
 * at the file's top.
 */
export function sellerRepositoryAroundTests(
  slug: string,
  appOptions?: Parameters<typeof startTestApp>[0],
): SellerRepository {
  const repository = testAppAroundTests(appOptions) as SellerRepository;
  beforeAll(async () => {
    repository.seller = await createSeller(repository.app, slug);
  });
  return repository;
}

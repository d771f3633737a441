import { beforeAll } from 'vitest';
import { createSeller } from '../composer/repository-fixtures.js';
import type { TestUser } from './sessions.js';
import { type TestApp, testAppAroundTests } from './test-app.js';

export type SellerRepository = { app: TestApp; seller: TestUser };

/**
 * Starts an app with one seller (slug `slug`) before the tests of the file and closes it after them, for tests of the
 * Composer repository that write their packages and holders as fixtures. The fields are filled in when the tests run,
 * so a test reads them from the returned object, not at the file's top.
 */
export function sellerRepositoryAroundTests(slug: string): SellerRepository {
  const repository = testAppAroundTests() as SellerRepository;
  beforeAll(async () => {
    repository.seller = await createSeller(repository.app, slug);
  });
  return repository;
}

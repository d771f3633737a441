import { beforeAll, describe, expect, it } from 'vitest';
import {
  createGrant,
  createHolder,
  createPackage,
  type FixtureHolder,
  requestOnHost,
} from '../../../../test/composer/repository-fixtures.js';
import { giveTrial } from '../../../../test/support/packages.js';
import { sellerRepositoryAroundTests } from '../../../../test/support/seller-repository.js';
import { type SignedIn, signIn } from '../../../../test/support/sessions.js';

// Package names are matched against Composer's naming rule on every p2 request, at the dist door and in the package
// form. The rule used to backtrack 2^(n-1) ways on n letters followed by a character it refuses, so one request
// without a credential held the event loop for minutes and every tenant with it. Each hostile request below is sent
// together with an ordinary one: before the fix the pair never completed.

const ACME_HOST = 'acme.composer.localhost';
const HOSTILE_VENDOR = `${'a'.repeat(40)}!`;

const repository = sellerRepositoryAroundTests('acme');
let holder: FixtureHolder;

beforeAll(async () => {
  const pkg = await createPackage(repository.app, repository.seller, 'acme/widget', [
    { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
  ]);
  holder = await createHolder(repository.app, repository.seller);
  await createGrant(repository.app, holder, pkg);
});

/** The licensed p2 file: what the ordinary request beside each hostile one asks for. */
function licensedMetadata() {
  return requestOnHost(repository.app, ACME_HOST, '/p2/acme/widget.json', { token: holder.token });
}

describe('hostile package names on the Composer repository', () => {
  it('asks for a credential at once for a p2 file named with 40 letters and a "!", and keeps serving', async () => {
    const [hostile, ordinary] = await Promise.all([
      requestOnHost(repository.app, ACME_HOST, `/p2/${HOSTILE_VENDOR}/x.json`),
      licensedMetadata(),
    ]);
    expect(hostile.status).toBe(401);
    expect(ordinary.status).toBe(200);
  });

  it.each([
    ['a tagged p2 file', `/p2/${HOSTILE_VENDOR}/x.json`],
    ['a branch p2 file', `/p2/${HOSTILE_VENDOR}/x~dev.json`],
    ['a p2 file with the name in the package part', `/p2/acme/${'a'.repeat(40)}!.json`],
    ['a dist download', `/api/composer/download/${HOSTILE_VENDOR}/x/1.0.0`],
  ])('answers 404 at once for %s with a hostile name and a credential, and keeps serving', async (_door, path) => {
    const [hostile, ordinary] = await Promise.all([
      requestOnHost(repository.app, ACME_HOST, path, { token: holder.token }),
      licensedMetadata(),
    ]);
    expect(hostile.status).toBe(404);
    expect(ordinary.status).toBe(200);
  });
});

describe('hostile package names in the package form', () => {
  let seller: SignedIn;

  beforeAll(async () => {
    seller = await signIn(repository.app, { user: repository.seller });
    await giveTrial(repository.app, repository.seller.id);
  });

  it.each([
    ['40 letters and a "!"', `${'a'.repeat(40)}!/x`],
    ['a name far over the length limit', `${'a'.repeat(100_000)}!/x`],
  ])('refuses a package named with %s at once, and keeps serving', async (_name, packageName) => {
    const [hostile, ordinary] = await Promise.all([
      seller.client.post('/api/repositories', { githubRepoId: 'acme/widget', packageName, isActive: true }),
      licensedMetadata(),
    ]);
    expect(hostile.status).toBe(400);
    expect(ordinary.status).toBe(200);
  });
});

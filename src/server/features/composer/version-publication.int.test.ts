import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGrant,
  createHolder,
  type FixtureHolder,
  jsonOf,
  requestOnHost,
} from '../../../../test/composer/repository-fixtures.js';
import { addPackageFromDashboard } from '../../../../test/support/dashboard-packages.js';
import { createPackageRepository, git, type PackageRepository } from '../../../../test/support/git-fixtures.js';
import { giveTrial, waitForSync } from '../../../../test/support/packages.js';
import { type SignedIn, signIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import type { P2File } from '../../../contract/composer.js';
import { packageVersions, platformSubscriptions } from '../../db/schema/index.js';
import { DAY_MS } from '../../lib/clock.js';
import { syncPackage } from '../packages/package-sync.js';

// An updates-only license ("freeze") covers the versions published before its update window closed: when Packgate
// first saw each tag, never a date inside git that a committer can set (issue 28). Real git repositories synced
// through the embedded code host, then the Composer doors over HTTP. Every fixture commit is dated in January 2024
// (author and committer date, as `GIT_AUTHOR_DATE`/`GIT_COMMITTER_DATE` would set them), long before any window
// here ends: exactly the back-dated commit a cherry-pick, a rebase or `commit --amend` produces.

const HOST = 'acme.composer.localhost';

let app: TestApp;
let seller: SignedIn;
let packageCounter = 0;

beforeAll(async () => {
  app = await startTestApp();
  seller = await signInSeller(app, { slug: 'acme' });
  await giveTrial(app, seller.user.id);
  // The tests move the clock by weeks: a trial that outlasts them keeps the seller's repository open.
  await app.ctx.db
    .update(platformSubscriptions)
    .set({ trialEndsAt: new Date('2027-01-01T00:00:00Z') })
    .where(eq(platformSubscriptions.userId, seller.user.id));
});

afterAll(async () => {
  await app?.close();
});

type Published = {
  name: string;
  packageId: string;
  repository: PackageRepository;
  /** Updates-only license whose window closes `windowEnd`. */
  frozen: FixtureHolder;
  /** A license without an end, which sees every version. */
  lasting: FixtureHolder;
  windowEnd: Date;
};

/** A git repository with v1.0.0, turned into a package (synced now), and two holders; the window ends in 5 days. */
async function publishedPackage(): Promise<Published> {
  packageCounter++;
  const name = `acme/widget-${packageCounter}`;
  const repositoryName = `widget-${packageCounter}.git`;
  const repository = await createPackageRepository(path.join(app.dataDir, 'repos', 'acme', repositoryName), {
    name,
    tags: ['v1.0.0'],
    branches: ['main'],
    bare: true,
  });
  // A session of its own: the tests move the clock past a session's lifetime.
  const ownSession = await signIn(app, { user: seller.user });
  const { id: packageId } = await addPackageFromDashboard(app, ownSession, {
    githubRepoId: `acme/${repositoryName}`,
    fullName: `acme/widget-${packageCounter}`,
    packageName: name,
    description: '',
    isActive: true,
  });
  const windowEnd = new Date(app.clock.now().getTime() + 5 * DAY_MS);
  const frozen = await createHolder(app, seller.user, `frozen-${packageCounter}@example.com`);
  await createGrant(app, frozen, { id: packageId }, { expiresAt: windowEnd, endMode: 'updates' });
  const lasting = await createHolder(app, seller.user, `lasting-${packageCounter}@example.com`);
  await createGrant(app, lasting, { id: packageId });
  return { name, packageId, repository, frozen, lasting, windowEnd };
}

/** What a seller's refresh (or a push webhook) does: one sync, at the test clock's time. */
async function sync(packageId: string): Promise<void> {
  const handle = await syncPackage(app.ctx, packageId, { userId: seller.user.id });
  expect((await handle.done).status).toBe('ready');
  await waitForSync(app, packageId);
}

async function p2(holder: FixtureHolder, name: string): Promise<P2File['packages'][string]> {
  const response = await requestOnHost(app, HOST, `/p2/${name}.json`, { token: holder.token });
  expect(response.status).toBe(200);
  return jsonOf<P2File>(response).packages[name]!;
}

function download(holder: FixtureHolder, name: string, version: string) {
  return requestOnHost(app, HOST, `/api/composer/download/${name}/${encodeURIComponent(version)}`, {
    token: holder.token,
  });
}

async function publishedAt(packageId: string, version: string): Promise<Date> {
  const [row] = await app.ctx.db
    .select({ publishedAt: packageVersions.publishedAt })
    .from(packageVersions)
    .where(and(eq(packageVersions.packageId, packageId), eq(packageVersions.version, version)));
  return row!.publishedAt;
}

/** `time` as the p2 file writes it. */
const composerTime = (date: Date) => `${date.toISOString().slice(0, 19)}+00:00`;

describe('an updates-only license and when versions were published', () => {
  it('neither offers nor serves a tag pushed after the window closed on a commit dated before it', async () => {
    const { name, packageId, repository, frozen, lasting, windowEnd } = await publishedPackage();
    const firstSeen = app.clock.now();
    app.clock.advance(10 * DAY_MS);
    const pushedLate = app.clock.now();
    const late = await repository.addTag('v1.1.0');
    expect(late.time.getTime()).toBeLessThan(windowEnd.getTime());
    await sync(packageId);

    expect(await publishedAt(packageId, 'v1.1.0')).toEqual(pushedLate);
    const offered = await p2(frozen, name);
    expect(offered.map((version) => version.version)).toEqual(['v1.0.0']);
    expect(offered[0]!.time).toBe(composerTime(firstSeen));

    const refused = await download(frozen, name, 'v1.1.0');
    expect(refused.status).toBe(403);
    expect(jsonOf(refused).message).toBe(
      `Your license for ${name} ended on ${windowEnd.toISOString().slice(0, 10)}: v1.1.0 is not covered, only versions released before then. Ask the seller to renew it.`,
    );
    expect((await download(frozen, name, 'v1.0.0')).status).toBe(200);
    const latest = await download(frozen, name, 'latest');
    expect(latest.status).toBe(200);
    expect(String(latest.headers['content-disposition'])).toContain('v1.0.0');

    // A license that still receives updates gets it, dated when it was published.
    const everything = await p2(lasting, name);
    expect(everything.map((version) => [version.version, version.time])).toEqual([
      ['v1.1.0', composerTime(pushedLate)],
      ['v1.0.0', composerTime(firstSeen)],
    ]);
    expect((await download(lasting, name, 'v1.1.0')).status).toBe(200);
  });

  it('keeps a version installable, and its publication time, when later syncs find it at the same commit', async () => {
    const { name, packageId, frozen } = await publishedPackage();
    const firstSeen = await publishedAt(packageId, 'v1.0.0');
    app.clock.advance(10 * DAY_MS);
    await sync(packageId);

    expect(await publishedAt(packageId, 'v1.0.0')).toEqual(firstSeen);
    expect((await p2(frozen, name)).map((version) => version.version)).toEqual(['v1.0.0']);
    expect((await download(frozen, name, 'v1.0.0')).status).toBe(200);
  });

  it('treats a tag moved to another commit after the window closed as a new publication', async () => {
    const { name, packageId, repository, frozen, lasting } = await publishedPackage();
    app.clock.advance(10 * DAY_MS);
    const movedAt = app.clock.now();
    // The tag is made to name other content (here the tip of main, committed in 2024).
    await git(repository.dir, ['tag', '--force', 'v1.0.0', repository.revisions.main!.commit]);
    await sync(packageId);

    expect(await publishedAt(packageId, 'v1.0.0')).toEqual(movedAt);
    expect(await p2(frozen, name)).toEqual([]);
    expect((await download(frozen, name, 'v1.0.0')).status).toBe(403);
    expect((await p2(lasting, name))[0]).toMatchObject({
      version: 'v1.0.0',
      time: composerTime(movedAt),
      dist: expect.objectContaining({ reference: repository.revisions.main!.commit }),
    });
  });

  it("dates a version no earlier than its annotated tag's tagger date", async () => {
    const { name, packageId, repository, frozen, windowEnd } = await publishedPackage();
    // Tagged (by the tag's own date) after the window closes, but synced before: published at the tagger date.
    const taggedAt = new Date(windowEnd.getTime() + 2 * DAY_MS);
    const tagged = repository.revisions.main!.commit;
    // git takes the tagger date from GIT_COMMITTER_DATE.
    await git(repository.dir, ['tag', '--annotate', '-m', 'Release v1.2.0', 'v1.2.0', tagged], {
      GIT_COMMITTER_DATE: taggedAt.toISOString(),
    });
    app.clock.advance(DAY_MS);
    await sync(packageId);
    expect(await publishedAt(packageId, 'v1.2.0')).toEqual(new Date(Math.floor(taggedAt.getTime() / 1000) * 1000));

    app.clock.advance(10 * DAY_MS);
    expect((await p2(frozen, name)).map((version) => version.version)).toEqual(['v1.0.0']);
    expect((await download(frozen, name, 'v1.2.0')).status).toBe(403);
  });
});

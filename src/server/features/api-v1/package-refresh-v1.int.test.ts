import { execFile } from 'node:child_process';
import { chmod, copyFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addGitServerPackage } from '../../../../test/support/dashboard-packages.js';
import { createPackageRepository, createTempDir } from '../../../../test/support/git-fixtures.js';
import { giveTrial, waitForSync } from '../../../../test/support/packages.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import type { CreatedApiToken } from '../../../contract/developer.js';
import { packageVersions } from '../../db/schema/index.js';

// A new tag in the local repository folder without a click (issue 36): the git hook the README describes
// (scripts/git-hooks/post-receive) calls POST /api/v1/packages/{id}/refresh with an API token after a push, and the
// pushed tag becomes a version; a token without packages:write refreshes nothing and the pusher is told why.

const execFileAsync = promisify(execFile);
const identity = {
  GIT_AUTHOR_NAME: 'Ana Seller',
  GIT_AUTHOR_EMAIL: 'ana@acme.example',
  GIT_COMMITTER_NAME: 'Ana Seller',
  GIT_COMMITTER_EMAIL: 'ana@acme.example',
};

let app: TestApp;
let seller: SignedIn;
let packageId: string;
let bare: string;
let work: string;

/** Runs git as the seller does on their machine; answers what it printed on standard error (the hook's lines). */
async function sellerGit(cwd: string, args: string[]): Promise<string> {
  const { stderr } = await execFileAsync('git', args, { cwd, env: { ...process.env, ...identity } });
  return stderr;
}

async function apiToken(permissions: string[]): Promise<string> {
  const created = await seller.client.post('/api/developer/tokens', { name: 'git hook', permissions });
  return ((await created.json()) as CreatedApiToken).token;
}

async function versionsOfWidget(): Promise<string[]> {
  const rows = await app.ctx.db
    .select({ version: packageVersions.version })
    .from(packageVersions)
    .where(eq(packageVersions.packageId, packageId));
  return rows.map((row) => row.version).sort();
}

/** A commit and a tag pushed from the seller's clone; answers the push's standard error. */
async function pushTag(tag: string): Promise<string> {
  await writeFile(path.join(work, 'CHANGELOG.md'), `${tag}\n`);
  await sellerGit(work, ['add', 'CHANGELOG.md']);
  await sellerGit(work, ['commit', '--quiet', '-m', `Release ${tag}`]);
  await sellerGit(work, ['tag', tag]);
  return sellerGit(work, ['push', '--quiet', 'origin', 'main', tag]);
}

beforeAll(async () => {
  app = await startTestApp();
  bare = path.join(app.dataDir, 'repos', 'acme', 'widget.git');
  await createPackageRepository(bare, { name: 'acme/widget', tags: ['v1.0.0'], branches: ['main'], bare: true });
  seller = await signInSeller(app, { slug: 'acme' });
  await giveTrial(app, seller.user.id);
  const created = await addGitServerPackage(app, seller, 'acme/widget');
  packageId = created.id;

  // The hook installed as the README says.
  const hook = path.join(bare, 'hooks', 'post-receive');
  await copyFile(path.resolve('scripts/git-hooks/post-receive'), hook);
  await chmod(hook, 0o755);
  await sellerGit(bare, ['config', 'packgate.url', app.baseUrl]);
  await sellerGit(bare, ['config', 'packgate.packageId', packageId]);
  work = await createTempDir('packgate-hook-clone-');
  await sellerGit(work, ['clone', '--quiet', bare, '.']);
});

afterAll(async () => {
  await app?.close();
});

describe('the git hook of the local repository folder', () => {
  it('refreshes the package after a pushed tag, through API v1, so the tag becomes a version', async () => {
    await sellerGit(bare, ['config', 'packgate.token', await apiToken(['packages:write'])]);
    expect(await versionsOfWidget()).toEqual(['dev-main', 'v1.0.0']);
    const printed = await pushTag('v1.1.0');
    expect(printed).toContain('Packgate: refreshing the package; new versions appear when its sync finishes.');
    await waitForSync(app, packageId);
    expect(await versionsOfWidget()).toEqual(['dev-main', 'v1.0.0', 'v1.1.0']);
  });

  it('refreshes nothing with a token that lacks packages:write, and tells the pusher why', async () => {
    await sellerGit(bare, ['config', 'packgate.token', await apiToken(['packages:read'])]);
    const printed = await pushTag('v1.2.0');
    expect(printed).toContain('Packgate: the refresh was refused (403)');
    expect(printed).toContain('packages:write');
    await waitForSync(app, packageId);
    expect(await versionsOfWidget()).not.toContain('v1.2.0');
  });

  it("answers 404 for another seller's package id and 401 without a token", async () => {
    const token = await apiToken(['packages:write']);
    const refresh = (id: string, authorization?: string) =>
      fetch(new URL(`/api/v1/packages/${id}/refresh`, app.baseUrl), {
        method: 'POST',
        headers: authorization ? { authorization } : {},
      });
    expect((await refresh('3f9a1c52-8b7e-4d21-a6f0-2c5e9b1d7a43', `Bearer ${token}`)).status).toBe(404);
    expect((await refresh(packageId)).status).toBe(401);
  });
});

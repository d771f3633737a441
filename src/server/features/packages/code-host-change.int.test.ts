import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGitHub, startFakeGitHub } from '../../../../test/fakes/github.js';
import { addGitServerPackage } from '../../../../test/support/dashboard-packages.js';
import {
  createPackageRepository,
  createTempDir,
  git,
  type PackageRepository,
  removeTempDir,
} from '../../../../test/support/git-fixtures.js';
import { giveTrial, waitForSync } from '../../../../test/support/packages.js';
import { type SignedIn, signIn, signInSeller, type TestUser } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp, testDatabaseKind } from '../../../../test/support/test-app.js';
import type { PackageDetail } from '../../../contract/packages.js';
import { type RecentTasks, taskLabel } from '../../../contract/tasks.js';
import type { DatabaseTarget } from '../../db/client.js';

// A package added from the local repository folder, then the same database and data folder started with GitHub
// configured (issue 36): the package keeps syncing from the folder while it exists, its tasks are named after the
// folder, and a host that is really gone is named in the start-up log.

const secretKey = randomBytes(32).toString('hex');
const onPostgres = testDatabaseKind() === 'postgres';

let github: FakeGitHub;
let first: TestApp;
let current: TestApp;
let dataDir: string;
let database: DatabaseTarget;
let widget: PackageRepository;
let owner: TestUser;
let packageId: string;

/**
 * Stops the running app and starts another on the same data. On PostgreSQL the first app stays open (it owns the
 * database) with its jobs paused, and a later one is closed: a runner left running there would claim the new app's
 * syncs as often as the new app does, with the old app's code hosts.
 */
async function restart(env: Record<string, string>, log?: string[]): Promise<TestApp> {
  if (onPostgres && current === first) first.ctx.jobs.pause();
  else await current.close();
  current = await startTestApp({
    env: { SECRET_KEY: secretKey, ...env },
    existing: { database, dataDir },
    ...(log ? { logStream: { write: (line: string) => void log.push(line) } } : {}),
  });
  return current;
}

type RecentTask = RecentTasks[number];

async function refresh(app: TestApp, seller: SignedIn): Promise<{ taskId: string }> {
  const response = await seller.client.post(`/api/repositories/${packageId}/refresh`);
  expect(response.status).toBe(202);
  const body = (await response.json()) as { taskId: string };
  await waitForSync(app, packageId);
  return body;
}

async function taskOf(seller: SignedIn, taskId: string): Promise<RecentTask> {
  const tasks = (await (await seller.client.get('/api/tasks')).json()) as RecentTask[];
  const task = tasks.find((each) => each.taskId === taskId);
  if (!task) throw new Error(`task ${taskId} is not among the seller's recent tasks`);
  return task;
}

const warningsAbout = (log: string[]) =>
  log
    .map((line) => JSON.parse(line) as { msg: string; level: number })
    .filter((line) => line.msg.includes('which this server is not configured to use'));

beforeAll(async () => {
  github = await startFakeGitHub();
  if (onPostgres) {
    // Two apps share one PostgreSQL database; the first stays open (it owns the database) with its jobs paused.
    first = await startTestApp({ env: { SECRET_KEY: secretKey } });
    dataDir = first.dataDir;
    database = first.databaseTarget!;
  } else {
    dataDir = await createTempDir('packgate-hosts-');
    database = { kind: 'pglite', dataDir: path.join(dataDir, 'pglite') };
    first = await startTestApp({ env: { SECRET_KEY: secretKey }, existing: { database, dataDir } });
  }
  current = first;
  widget = await createPackageRepository(path.join(dataDir, 'repos', 'acme', 'widget.git'), {
    name: 'acme/widget',
    tags: ['v1.0.0'],
    branches: ['main'],
    bare: true,
  });
  const seller = await signInSeller(first);
  owner = seller.user;
  await giveTrial(first, owner.id);
  const created = await addGitServerPackage(first, seller, 'acme/widget');
  packageId = created.id;
});

afterAll(async () => {
  await current?.close();
  if (onPostgres) await first?.close();
  else if (dataDir) await removeTempDir(dataDir);
  await github?.close();
});

describe('a package from the local folder on a server started with GitHub', () => {
  const log: string[] = [];
  let app: TestApp;
  let seller: SignedIn;

  beforeAll(async () => {
    // A new tag while the server was down: only a sync from the folder can publish it.
    await git(widget.dir, ['tag', 'v1.1.0', widget.revisions['v1.0.0']!.commit]);
    app = await restart(github.env(), log);
    expect(app.ctx.codeHost.kind).toBe('github');
    seller = await signIn(app, { user: owner });
  });

  it('still syncs from the local folder', async () => {
    await refresh(app, seller);
    const detail = (await (await seller.client.get(`/api/repositories/${packageId}`)).json()) as PackageDetail;
    expect(detail).toMatchObject({ codeHost: 'local', syncStatus: 'ready', syncError: null });
    expect(detail.versions.map((version) => version.version)).toContain('v1.1.0');
  });

  it('names the sync task after the local folder, not GitHub', async () => {
    const { taskId } = await refresh(app, seller);
    const task = await taskOf(seller, taskId);
    expect(task.data).toMatchObject({ codeHost: 'local' });
    expect(taskLabel(task)).toBe('Local Repository Sync');
  });

  it('logs no warning at start-up, since every package can be reached', () => {
    expect(log.length).toBeGreaterThan(0);
    expect(warningsAbout(log)).toEqual([]);
  });
});

describe('a package from the local folder when the folder is gone', () => {
  const log: string[] = [];
  let app: TestApp;
  let seller: SignedIn;

  beforeAll(async () => {
    app = await restart({ ...github.env(), GIT_REPOS_DIR: path.join(dataDir, 'no-such-folder') }, log);
    seller = await signIn(app, { user: owner });
  });

  it('says at start-up how many packages use a host the server is not configured for', () => {
    expect(warningsAbout(log)).toEqual([
      expect.objectContaining({
        level: 40,
        msg:
          '1 package comes from the local repository folder, which this server is not configured to use: their ' +
          `syncs fail until you create GIT_REPOS_DIR (${path.join(dataDir, 'no-such-folder')}) with their repositories and restart`,
      }),
    ]);
  });

  it('fails its sync saying which host is missing, under the local folder’s name', async () => {
    const { taskId } = await refresh(app, seller);
    const detail = (await (await seller.client.get(`/api/repositories/${packageId}`)).json()) as PackageDetail;
    expect(detail.syncStatus).toBe('failed');
    expect(detail.syncError).toBe(
      'This package comes from the local repository folder, which this server is not configured to use. ' +
        'Put its repository back in GIT_REPOS_DIR and restart, or add the package anew.',
    );
    expect(taskLabel(await taskOf(seller, taskId))).toBe('Local Repository Sync');
  });
});

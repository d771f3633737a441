import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TaskProgressEvent } from '../../src/contract/realtime.js';
import { packages, platformSubscriptions } from '../../src/server/db/schema/index.js';
import { waitForPackageSync } from '../../src/server/features/packages/package-sync.js';
import { DAY_MS } from '../../src/server/lib/clock.js';
import { createPackageRepository } from './git-fixtures.js';
import type { SignedIn } from './sessions.js';
import { openTaskSocket, type TaskSocket } from './task-socket.js';
import type { TestApp } from './test-app.js';

// Helpers for package tests: plans, adding a package and waiting for its background syncs, reading zips, watching
// task progress.

const execFileAsync = promisify(execFile);

/** Gives the seller a running trial of the tier (straight in the database, like signing in does for users). */
export async function giveTrial(app: TestApp, userId: string, tierId = 'enterprise'): Promise<void> {
  const now = app.clock.now();
  await app.ctx.db.insert(platformSubscriptions).values({
    userId,
    status: 'trial',
    tierId,
    trialStartedAt: now,
    trialEndsAt: new Date(now.getTime() + 14 * DAY_MS),
  });
}

/** A trial that ended yesterday: the seller is trial_expired. */
export async function giveExpiredTrial(app: TestApp, userId: string, tierId = 'enterprise'): Promise<void> {
  const now = app.clock.now();
  await app.ctx.db.insert(platformSubscriptions).values({
    userId,
    status: 'trial',
    tierId,
    trialStartedAt: new Date(now.getTime() - 15 * DAY_MS),
    trialEndsAt: new Date(now.getTime() - DAY_MS),
  });
}

/** Gives the seller a paid plan of the tier running until `currentPeriodEnd`, past any trial's end. */
export async function giveActivePlan(
  app: TestApp,
  userId: string,
  currentPeriodEnd: Date,
  tierId = 'enterprise',
): Promise<void> {
  await app.ctx.db.insert(platformSubscriptions).values({ userId, status: 'active', tierId, currentPeriodEnd });
}

/** Waits for the package's running and queued background syncs (sync and pre-cache); throws at the bound. */
export async function waitForSync(app: TestApp, packageId: string, timeoutMs = 60_000): Promise<void> {
  // waitForPackageSync gives up quietly at its bound (a server must not hang on a stuck sync); a test must not.
  await withinBound(
    waitForPackageSync(app.ctx, packageId, timeoutMs * 2),
    timeoutMs,
    `the sync of package ${packageId} did not finish within ${timeoutMs / 1000} s`,
  );
}

/** A package row of the seller written straight to the database, without versions: for tests about other things. */
export async function insertPackage(
  app: TestApp,
  ownerId: string,
  name: string,
  isActive = true,
): Promise<typeof packages.$inferSelect> {
  const [row] = await app.ctx.db
    .insert(packages)
    .values({ ownerId, codeHost: 'local', repositoryId: name, repositoryFullName: name, name, isActive })
    .returning();
  return row!;
}

/**
 * A package added as a seller adds one on the embedded code host: a bare repository `<name>.git` with these tags in
 * GIT_REPOS_DIR, added from the dashboard (the seller needs a plan) and synced. Returns the package's id.
 */
export async function addSyncedPackage(
  app: TestApp,
  seller: SignedIn,
  name: string,
  tags: string[] = ['v1.0.0'],
): Promise<string> {
  await createPackageRepository(path.join(app.ctx.config.gitReposDir, `${name}.git`), { name, tags, bare: true });
  const created = await seller.client.post('/api/repositories', { githubRepoId: `${name}.git`, packageName: name });
  if (created.status !== 201) throw new Error(`adding ${name} answered ${created.status}: ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  await waitForSync(app, id);
  return id;
}

/** Resolves as the promise does, or rejects with the message once the bound passes. */
async function withinBound<T>(promise: Promise<T>, timeoutMs: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), timeoutMs);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

export function sha1Hex(data: Buffer): string {
  return createHash('sha1').update(data).digest('hex');
}

/** Reads a stored object whole. */
export async function readStored(app: TestApp, key: string): Promise<Buffer | undefined> {
  const object = await app.ctx.storage.get(key);
  if (!object) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of object.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Every file of a zip with its text, paths relative to the zip's root (extracted with Debian's unzip). */
export async function zipFiles(zip: Buffer): Promise<Record<string, string>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'packgate-zip-'));
  try {
    await writeFile(path.join(dir, 'dist.zip'), zip);
    await execFileAsync('unzip', ['-q', path.join(dir, 'dist.zip'), '-d', path.join(dir, 'out')]);
    const files: Record<string, string> = {};
    const walk = async (folder: string, prefix: string) => {
      for (const entry of await readdir(folder, { withFileTypes: true })) {
        const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
        if (entry.isDirectory()) await walk(path.join(folder, entry.name), relative);
        else files[relative] = await readFile(path.join(folder, entry.name), 'utf8');
      }
    };
    await walk(path.join(dir, 'out'), '');
    return files;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Strips the one folder every entry of a dist zip sits in (as Composer does when it extracts). */
export function withoutTopFolder(files: Record<string, string>): Record<string, string> {
  const tops = new Set(Object.keys(files).map((file) => file.split('/')[0]));
  if (tops.size !== 1) throw new Error(`expected one top folder, found ${[...tops].join(', ')}`);
  return Object.fromEntries(Object.entries(files).map(([file, text]) => [file.split('/').slice(1).join('/'), text]));
}

export type WatchedSocket = TaskSocket & {
  /** The first event (already received or still to come) that matches; throws at the bound. */
  next(matches: (event: TaskProgressEvent) => boolean, timeoutMs?: number): Promise<TaskProgressEvent>;
};

/** A socket signed in as the user (cookie + authenticate) that collects every task-progress event. */
export async function watchTasks(app: TestApp, signedIn: SignedIn): Promise<WatchedSocket> {
  const watched = await openTaskSocket(
    app.baseUrl,
    `${signedIn.cookieName}=${signedIn.cookie}`,
    signedIn.user.id,
    5_000,
  );
  const { socket, events } = watched;
  const next = (matches: (event: TaskProgressEvent) => boolean, timeoutMs = 60_000) => {
    const received = events.find(matches);
    if (received) return Promise.resolve(received);
    let listener: (event: TaskProgressEvent) => void = () => {};
    const arrival = new Promise<TaskProgressEvent>((resolve) => {
      listener = (event) => matches(event) && resolve(event);
      socket.on('task-progress', listener);
    });
    const bounded = withinBound(arrival, timeoutMs, `no matching task-progress event within ${timeoutMs / 1000} s`);
    return bounded.finally(() => socket.off('task-progress', listener));
  };
  return { ...watched, next };
}

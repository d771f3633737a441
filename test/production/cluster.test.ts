// Proof that several processes act as one (issue 9): two built Packgate processes (`node dist/server/main.js`)
// behind Debian's nginx as a round-robin load balancer, on one PostgreSQL database, Redis and an S3-compatible
// bucket (s3rver) on loopback, each with a data folder of its own. Needs `npm run build` first (`npm test` does
// it), nginx (scripts/install-system-deps.sh), and TEST_DATABASE_URL with TEST_REDIS_URL, as CI sets them.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TemporaryLicense } from '../../src/contract/licenses.js';
import type { CreatePackageResponse, Package } from '../../src/contract/packages.js';
import { createStorage } from '../../src/server/adapters/storage/create-storage.js';
import type { ObjectStorage } from '../../src/server/adapters/storage/object-storage.js';
import { type DatabaseHandle, openDatabase } from '../../src/server/db/client.js';
import { apiTokens, jobs, packageVersions, sessions, users } from '../../src/server/db/schema/index.js';
import { generateToken, sha256Hex } from '../../src/server/lib/crypto.js';
import { requestOnHost } from '../composer/repository-fixtures.js';
import { startFakeS3 } from '../fakes/s3.js';
import { type FakeSmtp, startFakeSmtp } from '../fakes/smtp.js';
import { createDatabaseFromTemplate, createPostgresTemplate } from '../support/database-template.js';
import { freePort } from '../support/free-port.js';
import { createPackageRepository, type PackageRepository, readFixtureTree } from '../support/git-fixtures.js';
import { TestClient } from '../support/http-client.js';
import type { TestApp } from '../support/test-app.js';
import {
  type Balancer,
  builtServer,
  checkNginxConfig,
  createGitGate,
  type GitGate,
  type PackgateProcess,
  pollUntil,
  Resources,
  startBalancer,
  startPackgate,
  watchTasksAt,
} from './support/cluster.js';

const execFileAsync = promisify(execFile);
const TOKEN_PATTERN = /pgc_[A-Za-z0-9]{36}/;
/** A killed process's job is taken over once its lease runs out: short here, so that the test does not wait long. */
const JOB_LEASE_SECONDS = 6;

const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
// Registered only where PostgreSQL and Redis are configured (CI always sets both): never skipped, never passed
// without running.
const describeWithServices: (name: string, options: { timeout: number }, body: () => void) => void =
  adminUrl && redisUrl ? describe : () => {};

describe('the balancer in front of the cluster', () => {
  it("is a configuration Debian's nginx accepts", async () => {
    const resources = new Resources();
    try {
      expect(() => checkNginxConfig(resources, [5001, 5002])).not.toThrow();
    } finally {
      await resources.cleanUp();
    }
  });
});

describeWithServices('two Packgate processes behind nginx', { timeout: 240_000 }, () => {
  const resources = new Resources();
  let database: DatabaseHandle;
  let smtp: FakeSmtp;
  let gate: GitGate;
  let reposDir: string;
  let widget: PackageRepository;
  let processes: PackgateProcess[];
  let balancer: Balancer;
  let seller: { id: string; cookie: string; client: TestClient };
  let widgetId: string;
  /** What each process was started with (a replacement process too). */
  let env: Record<string, string>;
  /** The bucket both processes keep their zips in, as the test reaches it. */
  let bucket: ObjectStorage;
  let slowId: string;

  /** Everything the processes printed, to explain a failure. */
  const explain = () =>
    [
      ...processes.map((each) => `--- ${each.name} (port ${each.port}):\n${each.output().slice(-20_000)}`),
      `--- nginx:\n${balancer?.errorLog() ?? ''}`,
    ].join('\n');

  const mirrorOf = (each: PackgateProcess, packageId: string) => path.join(each.dataDir, 'mirrors', `${packageId}.git`);

  async function addPackage(repositoryId: string, packageName: string): Promise<string> {
    const listed = (await (await seller.client.get('/api/github/repositories')).json()) as {
      githubId: string;
      fullName: string;
    }[];
    const repo = listed.find((candidate) => candidate.githubId === repositoryId);
    expect(repo, JSON.stringify(listed)).toBeDefined();
    const response = await seller.client.post('/api/repositories', { githubRepoId: repo!.githubId, packageName });
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as CreatePackageResponse).id;
  }

  function waitForReady(packageId: string, timeoutMs: number): Promise<Package> {
    return pollUntil(
      `package ${packageId} was not synced`,
      async () => {
        const response = await seller.client.get(`/api/repositories/${packageId}`);
        if (response.status !== 200) return undefined; // a balancer retry after a killed process
        const pkg = (await response.json()) as Package;
        if (pkg.syncStatus === 'failed') throw new Error(`sync failed: ${pkg.syncError}`);
        return pkg.syncStatus === 'ready' && pkg.versionCount > 0 ? pkg : undefined;
      },
      { timeoutMs, intervalMs: 200, explain },
    );
  }

  /** The package's sync job once it is over: the package is ready before the job ends, its zips built after. */
  function waitForSyncJob(packageId: string) {
    return pollUntil(
      'the sync job did not finish',
      async () => {
        const [row] = await database.db
          .select()
          .from(jobs)
          .where(and(eq(jobs.kind, 'package-sync'), eq(jobs.concurrencyKey, `package:${packageId}`)));
        return row && (row.status === 'completed' || row.status === 'failed') ? row : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 200, explain },
    );
  }

  /** The messages the fake SMTP server accepted for `email`, decoded (quoted-printable). */
  function mailsTo(email: string): string[] {
    return smtp.messages
      .filter((message) => message.to.some((to) => to.includes(email)))
      .map((message) =>
        message.data
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
      );
  }

  async function issueLicense(packageId: string, email: string): Promise<TemporaryLicense> {
    const response = await seller.client.post(`/api/repositories/${packageId}/temporary-licenses`, {
      email,
      durationDays: 7,
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()) as TemporaryLicense;
  }

  beforeAll(async () => {
    if (!existsSync(builtServer)) throw new Error('No server build in dist/server: run `npm run build` first.');
    const template = await createPostgresTemplate(adminUrl!);
    resources.onCleanUp(() => template.remove());
    const fresh = await createDatabaseFromTemplate(adminUrl!, template.name);
    resources.onCleanUp(() => fresh.drop());
    database = await openDatabase({ kind: 'postgres', url: fresh.url });
    resources.onCleanUp(() => database.close());
    const s3 = await startFakeS3();
    resources.onCleanUp(() => s3.close());
    smtp = await startFakeSmtp();
    resources.onCleanUp(() => smtp.close());

    reposDir = resources.folder('packgate-cluster-repos-');
    widget = await createPackageRepository(path.join(reposDir, 'acme', 'widget.git'), {
      name: 'acme/widget',
      tags: ['v1.0.0', 'v1.1.0'],
      bare: true,
    });
    await createPackageRepository(path.join(reposDir, 'acme', 'slow.git'), {
      name: 'acme/slow',
      tags: ['v1.0.0'],
      bare: true,
    });
    gate = createGitGate(resources, path.join(reposDir, 'acme', 'slow.git'));

    const balancerPort = await freePort();
    const ports = [await freePort(), await freePort()];
    bucket = createStorage({
      kind: 's3',
      bucket: s3.bucket,
      region: s3.region,
      endpoint: s3.endpoint,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
    });
    env = {
      DATABASE_URL: fresh.url,
      REDIS_URL: redisUrl!,
      // Shared by both: a CSRF token or a sealed mail one process made, the other reads.
      SECRET_KEY: randomBytes(32).toString('base64url'),
      PUBLIC_URL: `http://localhost:${balancerPort}`,
      TRUST_PROXY: '127.0.0.1',
      GIT_REPOS_DIR: reposDir,
      SMTP_URL: smtp.url,
      JOB_LEASE_SECONDS: String(JOB_LEASE_SECONDS),
      SHUTDOWN_TIMEOUT_SECONDS: '5',
      LOG_LEVEL: 'info',
      // The test machine runs other test files beside these two processes: a second's stall there made one answer
      // a seller's POST 503 "busy" (CI, stop 23). Shedding is tested on its own (overload tests); this is about two
      // processes acting as one.
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
      ...s3.env,
    };
    processes = await Promise.all(
      ports.map((port, index) => startPackgate(resources, `p${index + 1}`, port, env, { path: gate.path })),
    );
    balancer = await startBalancer(resources, balancerPort, ports);

    const [user] = await database.db
      .insert(users)
      .values({ userType: 'seller', email: 'seller@example.com', slug: 'acme' })
      .returning();
    const cookieValue = generateToken('pgs');
    const now = new Date();
    await database.db.insert(sessions).values({
      idHash: sha256Hex(cookieValue),
      userId: user!.id,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + 86_400_000),
    });
    const client = new TestClient(balancer.url);
    client.setCookie('packgate_session', cookieValue);
    seller = { id: user!.id, cookie: `packgate_session=${cookieValue}`, client };
    const trial = await client.post('/api/platform-subscription/start-trial', { tier: 'starter' });
    expect(trial.status, await trial.clone().text()).toBe(200);
  }, 400_000); // each wait inside has its own, smaller bound

  afterAll(async () => {
    await resources.cleanUp();
  });

  it('shows a seller, over socket.io through the balancer, the progress of a sync the other process ran', async () => {
    // Round robin puts two connections in a row on the two processes (the access log checks it below).
    const watchers = [
      await watchTasksAt(balancer.url, seller.cookie, seller.id),
      await watchTasksAt(balancer.url, seller.cookie, seller.id),
    ];
    try {
      widgetId = await addPackage('acme/widget.git', 'acme/widget');
      await waitForReady(widgetId, 120_000);
      await waitForSyncJob(widgetId);
      // The process that ran the sync job holds the mirror; the other never fetched the repository.
      const ran = processes.filter((each) => existsSync(mirrorOf(each, widgetId)));
      expect(ran.map((each) => each.name)).toHaveLength(1);

      for (const watcher of watchers) {
        await pollUntil(
          'a socket did not hear the sync complete',
          async () =>
            watcher.events.find(
              (event) =>
                event.type === 'github-sync' && event.status === 'completed' && event.data?.packageId === widgetId,
            ),
          { timeoutMs: 30_000, explain: () => JSON.stringify(watcher.events, null, 2) },
        );
      }
    } finally {
      for (const watcher of watchers) watcher.close();
    }
    // nginx logs a websocket once it closes: one on each process, so one of them heard a sync run elsewhere.
    const sockets = await pollUntil(
      'nginx did not log both websockets',
      async () => {
        const lines = balancer.accessLog().filter((line) => line.startsWith('101 ') && line.includes('/socket.io/'));
        return lines.length >= 2 ? lines : undefined;
      },
      { timeoutMs: 30_000, explain: () => balancer.accessLog().join('\n') },
    );
    expect(new Set(sockets.map((line) => line.split(' ')[1])).size).toBe(2);
  });

  it('lets the real composer client install, through the process that did not sync it, the zip the other stored in S3', async () => {
    const other = processes.find((each) => !existsSync(mirrorOf(each, widgetId)))!;
    // The sync job's pre-cache put every zip in the bucket.
    const versions = await database.db.select().from(packageVersions).where(eq(packageVersions.packageId, widgetId));
    expect(versions.length).toBeGreaterThan(0);
    expect(versions.filter((version) => version.distSha1 === null)).toEqual([]);
    const holder = 'holder@example.com';
    await issueLicense(widgetId, holder);
    const mail = await pollUntil('the license e-mail did not arrive', async () => mailsTo(holder)[0], {
      timeoutMs: 30_000,
      explain,
    });
    const token = TOKEN_PATTERN.exec(mail)?.[0];
    expect(token, mail).toBeDefined();

    const workDir = resources.folder('packgate-cluster-composer-');
    const home = path.join(workDir, 'composer-home');
    const project = path.join(workDir, 'project');
    await mkdir(home, { recursive: true });
    await mkdir(project, { recursive: true });
    const host = `acme.composer.localhost:${other.port}`;
    // Dist URLs name the configured repository URL (PUBLIC_URL's port, the balancer's), never the port a client
    // happened to reach (issue 28): the zip comes back through the balancer, so Composer holds the token for both.
    const configuredHost = `acme.composer.localhost:${balancer.port}`;
    const credential = { username: 'token', password: token };
    await writeFile(
      path.join(home, 'auth.json'),
      JSON.stringify({ 'http-basic': { [host]: credential, [configuredHost]: credential } }),
    );
    await writeFile(
      path.join(project, 'composer.json'),
      JSON.stringify({
        name: 'holder/project',
        type: 'project',
        repositories: [{ type: 'composer', url: `http://${host}` }, { 'packagist.org': false }],
        config: { 'secure-http': false },
        require: {},
      }),
    );
    const run = await execFileAsync('composer', ['require', 'acme/widget:^1.0', '--no-interaction', '--no-ansi'], {
      cwd: project,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: workDir,
        COMPOSER_HOME: home,
        COMPOSER_CACHE_DIR: path.join(workDir, 'cache'),
        COMPOSER_NO_AUDIT: '1',
        COMPOSER_ALLOW_SUPERUSER: '1',
        COMPOSER_DISABLE_XDEBUG_WARN: '1',
      },
      timeout: 120_000,
    }).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`composer failed:\n${error.stdout}\n${error.stderr}\n${explain()}`);
    });
    const lock = JSON.parse(await readFile(path.join(project, 'composer.lock'), 'utf8'));
    expect(
      lock.packages.map((entry: { name: string; version: string }) => [entry.name, entry.version]),
      run.stderr,
    ).toEqual([['acme/widget', 'v1.1.0']]);
    expect(lock.packages[0].dist.url).toBe(`http://${configuredHost}/api/composer/download/acme/widget/v1.1.0`);
    expect(await readFixtureTree(path.join(project, 'vendor/acme/widget'))).toEqual(widget.revisions['v1.1.0']!.files);
    // Served from the bucket: the process still has no copy of the repository to build a zip from.
    expect(existsSync(mirrorOf(other, widgetId))).toBe(false);
  });

  it("holds API v1's 30 requests a minute per token in total, whichever process answers", async () => {
    const token = generateToken('pga');
    await database.db.insert(apiTokens).values({
      userId: seller.id,
      createdById: seller.id,
      name: 'cluster',
      tokenHash: sha256Hex(token),
      permissions: ['analytics:read'],
    });
    const answers: { status: number; upstream: string }[] = [];
    for (let index = 0; index < 32; index++) {
      const response = await fetch(`${balancer.url}/api/v1/analytics`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await response.arrayBuffer();
      answers.push({ status: response.status, upstream: response.headers.get('x-upstream') ?? '' });
    }
    expect(answers.map((answer) => answer.status)).toEqual([...Array(30).fill(200), 429, 429]);
    const upstreams = (from: number, to: number) => new Set(answers.slice(from, to).map((answer) => answer.upstream));
    expect(upstreams(0, 30)).toEqual(new Set(processes.map((each) => `127.0.0.1:${each.port}`)));
    expect(upstreams(30, 32)).toEqual(new Set(processes.map((each) => `127.0.0.1:${each.port}`)));
  });

  it('runs each queued job once although both processes claim jobs', async () => {
    const count = 8;
    const emails = Array.from({ length: count }, (_, index) => `queued-${index}@example.com`);
    // The SMTP server refuses the first attempt, made in the request: each e-mail waits in the queue for either
    // process's runner.
    smtp.refusing = true;
    const licenses: TemporaryLicense[] = [];
    for (const email of emails) licenses.push(await issueLicense(widgetId, email));
    const references = licenses.map((license) => `grant:${license.id}`);
    const queued = await database.db.select().from(jobs).where(inArray(jobs.reference, references));
    expect(queued.filter((job) => job.status !== 'completed' && job.attempts >= 1)).toHaveLength(count);
    expect(
      smtp.messages.filter((message) => emails.some((email) => message.to.some((to) => to.includes(email)))),
    ).toEqual([]);
    smtp.refusing = false;

    const finished = await pollUntil(
      'the queued e-mails were not all sent',
      async () => {
        const rows = await database.db.select().from(jobs).where(inArray(jobs.reference, references));
        return rows.length === count && rows.every((row) => row.status === 'completed') ? rows : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 250, explain },
    );
    // Each claim counts an attempt: the refused one in the request, then one per retry (more than one retry only
    // when the runners tried again before the server accepted, on a slow machine). Two runners on one job would
    // have sent its message twice.
    expect(finished.every((job) => job.attempts >= 2)).toBe(true);
    expect(emails.map((email) => mailsTo(email).length)).toEqual(Array(count).fill(1));
  });

  it('finishes, in the surviving process, a sync whose process was killed mid-job', async () => {
    gate.close();
    slowId = await addPackage('acme/slow.git', 'acme/slow');
    const [holderPid] = await pollUntil(
      'no process started fetching the repository',
      async () => (gate.entered().length > 0 ? gate.entered() : undefined),
      { timeoutMs: 60_000, explain },
    );
    const victim = processes.find((each) => each.child.pid === holderPid);
    expect(victim, `pid ${holderPid} is none of ${processes.map((each) => each.child.pid)}`).toBeDefined();
    const survivor = processes.find((each) => each !== victim)!;
    const [running] = await database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, 'package-sync'), eq(jobs.concurrencyKey, `package:${slowId}`)));
    expect(running).toMatchObject({ status: 'running', attempts: 1 });

    victim!.child.kill('SIGKILL');
    expect(await victim!.exited).toEqual({ code: null, signal: 'SIGKILL' });
    gate.open();

    const pkg = await waitForReady(slowId, 120_000);
    expect(pkg.versionCount).toBeGreaterThan(0);
    const done = await waitForSyncJob(slowId);
    expect(done.id).toBe(running!.id);
    expect(done).toMatchObject({ status: 'completed', attempts: 2, lockedBy: null });
    expect(existsSync(mirrorOf(survivor, slowId))).toBe(true);
    // The survivor answers alone now; nothing it serves depends on the dead one.
    const health = await fetch(`${balancer.url}/api/health`);
    expect(health.status).toBe(200);
  });

  it('builds a cleared zip once for downloads through both processes, and finishes it in one when its builder is killed mid-build', async () => {
    // The test above left one process: a new one takes the killed one's place behind nginx, with an empty data folder.
    const deadIndex = processes.findIndex((each) => each.child.exitCode !== null || each.child.signalCode !== null);
    expect(deadIndex).toBeGreaterThanOrEqual(0);
    processes[deadIndex] = await startPackgate(resources, 'p3', processes[deadIndex]!.port, env, { path: gate.path });

    // No zip in the bucket and no copy of the repository in either process: whoever builds fetches through the gate.
    await bucket.deletePrefix(`dists/${slowId}/`);
    for (const each of processes) await rm(mirrorOf(each, slowId), { recursive: true, force: true });
    const [version] = await database.db
      .select()
      .from(packageVersions)
      .where(and(eq(packageVersions.packageId, slowId), eq(packageVersions.version, 'v1.0.0')));
    const distKey = `dists/${slowId}/${version!.commit}.zip`;
    const holder = 'zips@example.com';
    await issueLicense(slowId, holder);
    const mail = await pollUntil('the license e-mail did not arrive', async () => mailsTo(holder)[0], {
      timeoutMs: 30_000,
      explain,
    });
    const token = TOKEN_PATTERN.exec(mail)![0];
    const download = (each: PackgateProcess) =>
      requestOnHost(
        { port: each.port } as TestApp,
        'acme.composer.localhost',
        `/api/composer/download/acme/slow/v1.0.0`,
        {
          token,
        },
      )
        .then((response) => ({ process: each, status: response.status, body: response.body }))
        .catch((error: Error) => ({ process: each, status: 0, body: Buffer.from(error.message) }));

    const gatePassed = gate.entered().length;
    gate.close();
    const downloads = Promise.all(processes.flatMap((each) => [download(each), download(each)]));
    const [builderPid] = await pollUntil(
      'no process started building the zip',
      async () => (gate.entered().length > gatePassed ? gate.entered().slice(gatePassed) : undefined),
      { timeoutMs: 60_000, explain },
    );
    const builder = processes.find((each) => each.child.pid === builderPid);
    expect(builder, `pid ${builderPid} is none of ${processes.map((each) => each.child.pid)}`).toBeDefined();
    const [building] = await database.db.select().from(jobs).where(eq(jobs.singletonKey, distKey));
    expect(building).toMatchObject({ kind: 'dist-build', status: 'running', attempts: 1 });

    builder!.child.kill('SIGKILL');
    expect(await builder!.exited).toEqual({ code: null, signal: 'SIGKILL' });
    gate.open();

    // The other process's downloads joined the job; it takes the job over once the lease runs out and serves them.
    const answers = await downloads;
    const [built] = await database.db.select().from(packageVersions).where(eq(packageVersions.id, version!.id));
    const served = answers.filter((each) => each.process !== builder);
    expect(served).toHaveLength(2);
    for (const answer of served) {
      expect(answer.status, answer.body.toString('utf8').slice(0, 300) + explain()).toBe(200);
      expect(createHash('sha1').update(answer.body).digest('hex')).toBe(built!.distSha1);
    }
    const buildJobs = await database.db.select().from(jobs).where(eq(jobs.singletonKey, distKey));
    expect(buildJobs).toHaveLength(1);
    expect(buildJobs[0]).toMatchObject({ id: building!.id, status: 'completed', attempts: 2, lockedBy: null });
  });
});

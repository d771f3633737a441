import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGrant,
  createHolder,
  createPackage,
  type FixtureHolder,
  type FixturePackage,
  jsonOf,
  requestOnHost,
} from '../../../../test/composer/repository-fixtures.js';
import { mailsTo, readOutbox } from '../../../../test/support/outbox.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import type { PackagesJson } from '../../../contract/composer.js';
import type { Advisory, PackageLifecycle } from '../../../contract/lifecycle.js';
import { sendAdvisoryNotices } from './lifecycle.service.js';

// The seller's lifecycle actions (advisories, abandonment, yanks) through their routes, and what a license
// holder's Composer then reads: every change is seen by the very next metadata request, held metadata or not,
// and a revalidating Composer (If-Modified-Since) gets the new file rather than a 304.

type P2Body = {
  packages: Record<string, { version: string; abandoned?: string | boolean }[]>;
  'security-advisories'?: Record<string, unknown>[];
  warnings?: { message: string; versions: string }[];
};

let app: TestApp;
let seller: SignedIn;
let host: string;
let counter = 0;

beforeAll(async () => {
  app = await startTestApp();
  seller = await signInSeller(app, { slug: 'lifecycle' });
  host = 'lifecycle.composer.localhost';
});

afterAll(async () => {
  await app?.close();
});

async function licensedPackage(): Promise<{ pkg: FixturePackage; holder: FixtureHolder; name: string }> {
  counter++;
  const name = `life/lib-${counter}`;
  const pkg = await createPackage(app, seller.user, name, [
    { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
    { version: 'v1.1.0', releasedAt: '2026-01-20T10:00:00Z' },
    { version: 'v1.2.0', releasedAt: '2026-02-01T10:00:00Z' },
    { version: 'dev-main', kind: 'branch', releasedAt: '2026-02-10T10:00:00Z' },
  ]);
  const holder = await createHolder(app, seller.user, `life-${counter}@example.com`);
  await createGrant(app, holder, pkg);
  return { pkg, holder, name };
}

async function p2(holder: FixtureHolder, name: string, headers: Record<string, string> = {}) {
  const response = await requestOnHost(app, host, `/p2/${name}.json`, { token: holder.token, headers });
  return {
    status: response.status,
    headers: response.headers,
    body: response.status === 200 ? jsonOf<P2Body>(response) : undefined,
  };
}

/** Read twice, so that the second answer comes from what the warm path holds. */
async function warm(holder: FixtureHolder, name: string) {
  await p2(holder, name);
  return p2(holder, name);
}

const advisoryInput = {
  title: 'Remote code execution in the template loader',
  affectedVersions: '>=1.0,<1.2.0',
  severity: 'high',
  cve: 'CVE-2026-12345',
  link: 'https://example.com/advisories/1',
  reportedAt: '2026-02-20',
};

describe('security advisories', () => {
  it('declares advisories in packages.json and serves a published one in the package file at once', async () => {
    const { pkg, holder, name } = await licensedPackage();
    const index = jsonOf<PackagesJson>(await requestOnHost(app, host, '/packages.json', { token: holder.token }));
    expect(index['security-advisories']).toEqual({ metadata: true });
    const before = await warm(holder, name);
    expect(before.body?.['security-advisories']).toEqual([]);
    const lastModified = String(before.headers['last-modified']);

    const response = await seller.client.post(`/api/repositories/${pkg.id}/advisories`, advisoryInput);
    expect(response.status).toBe(201);
    const advisory = (await response.json()) as Advisory;
    expect(advisory.advisoryId).toMatch(/^PKGT-[0-9A-F]{16}$/);

    const after = await p2(holder, name, { 'if-modified-since': lastModified });
    expect(after.status).toBe(200);
    expect(after.body?.['security-advisories']).toEqual([
      {
        advisoryId: advisory.advisoryId,
        packageName: name,
        remoteId: advisory.advisoryId,
        title: advisoryInput.title,
        link: advisoryInput.link,
        cve: advisoryInput.cve,
        affectedVersions: advisoryInput.affectedVersions,
        source: 'lifecycle',
        sources: [{ name: 'lifecycle', remoteId: advisory.advisoryId }],
        reportedAt: '2026-02-20 00:00:00',
        composerRepository: `http://${host}:${app.port}`,
        severity: 'high',
      },
    ]);
    // The branch file is not where Composer looks for advisories.
    const dev = await requestOnHost(app, host, `/p2/${name}~dev.json`, { token: holder.token });
    expect(jsonOf<P2Body>(dev)['security-advisories']).toBeUndefined();

    const withdrawn = await seller.client.delete(`/api/repositories/${pkg.id}/advisories/${advisory.advisoryId}`);
    expect(withdrawn.status).toBe(200);
    const lifecycle = (await withdrawn.json()) as PackageLifecycle;
    expect(lifecycle.advisories[0]?.withdrawnAt).not.toBeNull();
    expect((await p2(holder, name)).body?.['security-advisories']).toEqual([]);
  });

  it('refuses affected versions Composer could not parse, with the reason', async () => {
    const { pkg } = await licensedPackage();
    for (const affectedVersions of ['>=1.0,', 'foo', '~>1.2', '>=1.0 as 1.0']) {
      const response = await seller.client.post(`/api/repositories/${pkg.id}/advisories`, {
        ...advisoryInput,
        affectedVersions,
      });
      expect(response.status, affectedVersions).toBe(400);
      const body = (await response.json()) as { error: string; message: string; suggestion?: string; status: number };
      expect(body.message).toContain('Could not parse version constraint');
      expect(body.suggestion).toContain('>=1.0,<1.4.2');
      expect(body.status).toBe(400);
    }
  });

  it('refuses a malformed CVE, a non-http link and a title with control characters', async () => {
    const { pkg } = await licensedPackage();
    const bad = [
      { cve: 'CVE-12' },
      { link: 'javascript:alert(1)' },
      { title: 'two\u001b[31mlines' },
      { severity: 'urgent' },
      { reportedAt: '2026-13-45' },
    ];
    for (const change of bad) {
      const response = await seller.client.post(`/api/repositories/${pkg.id}/advisories`, {
        ...advisoryInput,
        ...change,
      });
      expect(response.status, JSON.stringify(change)).toBe(400);
      expect(((await response.json()) as { message: string }).message).toBeTruthy();
    }
  });

  it('e-mails once each holder whose installed version is affected, and no one else', async () => {
    const { pkg, holder, name } = await licensedPackage();
    const unaffected = await createHolder(app, seller.user, `life-unaffected-${counter}@example.com`);
    await createGrant(app, unaffected, pkg);
    const download = (who: FixtureHolder, version: string) =>
      requestOnHost(app, host, `/api/composer/download/${name}/${version}`, { token: who.token });
    expect((await download(holder, 'v1.1.0')).status).toBe(200);
    expect((await download(unaffected, 'v1.2.0')).status).toBe(200);

    const response = await seller.client.post(`/api/repositories/${pkg.id}/advisories`, advisoryInput);
    const advisory = (await response.json()) as Advisory;
    const mails = await waitForMail(holder.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain(`Security advisory for ${name}`);
    expect(mails[0]!.body).toContain('the version you last installed (v1.1.0) is affected');
    expect(mails[0]!.body).toContain(advisory.advisoryId);

    // The job ran; running it again mails no one twice.
    const lifecycle = (await (
      await seller.client.get(`/api/repositories/${pkg.id}/lifecycle`)
    ).json()) as PackageLifecycle;
    expect(lifecycle.advisories[0]?.notifiedHolders).toBe(1);
    expect(await sendAdvisoryNotices(app.ctx, lifecycle.advisories[0]!.id)).toBe(0);
    expect(mailsTo(app.dataDir, holder.email)).toHaveLength(1);
    expect(mailsTo(app.dataDir, unaffected.email)).toHaveLength(0);
  });
});

/** Polls the outbox for the advisory mail; fails loudly at its bound. */
async function waitForMail(email: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = readOutbox(app.dataDir).filter(
      (mail) => mail.to.includes(email) && mail.subject.startsWith('Security advisory'),
    );
    if (found.length > 0) return found;
    if (Date.now() > deadline) throw new Error(`No advisory e-mail to ${email} within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('abandoned packages', () => {
  it('marks every version abandoned with its replacement, and takes the mark back', async () => {
    const { pkg, holder, name } = await licensedPackage();
    await warm(holder, name);
    const response = await seller.client.put(`/api/repositories/${pkg.id}/abandonment`, {
      replacement: 'life/successor',
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as PackageLifecycle).abandoned?.replacement).toBe('life/successor');
    const versions = (await p2(holder, name)).body?.packages[name] ?? [];
    expect(versions.map((version) => version.abandoned)).toEqual([
      'life/successor',
      'life/successor',
      'life/successor',
    ]);
    const dev = jsonOf<P2Body>(await requestOnHost(app, host, `/p2/${name}~dev.json`, { token: holder.token }));
    expect(dev.packages[name]?.[0]?.abandoned).toBe('life/successor');

    await seller.client.put(`/api/repositories/${pkg.id}/abandonment`, {});
    expect((await p2(holder, name)).body?.packages[name]?.[0]?.abandoned).toBe(true);

    expect((await seller.client.delete(`/api/repositories/${pkg.id}/abandonment`)).status).toBe(200);
    expect((await p2(holder, name)).body?.packages[name]?.[0]?.abandoned).toBeUndefined();
  });

  it('refuses a replacement that is not a package name', async () => {
    const { pkg } = await licensedPackage();
    const response = await seller.client.put(`/api/repositories/${pkg.id}/abandonment`, { replacement: 'Not A Name' });
    expect(response.status).toBe(400);
  });
});

describe('yanked versions', () => {
  it('leaves the metadata and says why, while its zip stays downloadable and latest skips it', async () => {
    const { pkg, holder, name } = await licensedPackage();
    const before = await warm(holder, name);
    expect(before.body?.packages[name]?.map((version) => version.version)).toEqual(['v1.2.0', 'v1.1.0', 'v1.0.0']);

    const response = await seller.client.put(
      `/api/repositories/${pkg.id}/versions/${encodeURIComponent('v1.2.0')}/yank`,
      { reason: 'It deletes the cache folder on install' },
    );
    expect(response.status).toBe(200);
    const lifecycle = (await response.json()) as PackageLifecycle;
    expect(lifecycle.versions.find((version) => version.version === 'v1.2.0')?.yank?.reason).toBe(
      'It deletes the cache folder on install',
    );

    const after = await p2(holder, name, { 'if-modified-since': String(before.headers['last-modified']) });
    expect(after.status).toBe(200);
    expect(after.body?.packages[name]?.map((version) => version.version)).toEqual(['v1.1.0', 'v1.0.0']);
    expect(after.body?.warnings).toEqual([
      {
        message: `${name} v1.2.0 was yanked by the seller: It deletes the cache folder on install. Composer will not install it again; a composer.lock that names it still installs it until you run composer update ${name}.`,
        versions: '*',
      },
    ]);
    const exact = await requestOnHost(app, host, `/api/composer/download/${name}/v1.2.0`, { token: holder.token });
    expect(exact.status).toBe(200);
    expect(exact.body.equals(pkg.versions['v1.2.0']!.zip)).toBe(true);
    const latest = await requestOnHost(app, host, `/api/composer/download/${name}/latest`, { token: holder.token });
    expect(latest.body.equals(pkg.versions['v1.1.0']!.zip)).toBe(true);

    expect((await seller.client.delete(`/api/repositories/${pkg.id}/versions/v1.2.0/yank`)).status).toBe(200);
    const restored = await p2(holder, name);
    expect(restored.body?.packages[name]?.map((version) => version.version)).toEqual(['v1.2.0', 'v1.1.0', 'v1.0.0']);
    expect(restored.body?.warnings).toBeUndefined();
  });

  it('refuses to yank a branch, an unknown version, or without a reason', async () => {
    const { pkg } = await licensedPackage();
    const branch = await seller.client.put(`/api/repositories/${pkg.id}/versions/dev-main/yank`, { reason: 'x' });
    expect(branch.status).toBe(400);
    const unknown = await seller.client.put(`/api/repositories/${pkg.id}/versions/v9.9.9/yank`, { reason: 'x' });
    expect(unknown.status).toBe(404);
    const noReason = await seller.client.put(`/api/repositories/${pkg.id}/versions/v1.0.0/yank`, { reason: ' ' });
    expect(noReason.status).toBe(400);
  });
});

describe('tenancy', () => {
  it('answers 404 to another seller on every lifecycle route and changes nothing', async () => {
    const { pkg, holder, name } = await licensedPackage();
    const published = (await (
      await seller.client.post(`/api/repositories/${pkg.id}/advisories`, advisoryInput)
    ).json()) as Advisory;
    const other = await signInSeller(app);
    const base = `/api/repositories/${pkg.id}`;
    const answers = [
      await other.client.get(`${base}/lifecycle`),
      await other.client.post(`${base}/advisories`, advisoryInput),
      await other.client.delete(`${base}/advisories/${published.advisoryId}`),
      await other.client.put(`${base}/abandonment`, {}),
      await other.client.delete(`${base}/abandonment`),
      await other.client.put(`${base}/versions/v1.0.0/yank`, { reason: 'not yours' }),
      await other.client.delete(`${base}/versions/v1.0.0/yank`),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    const malformed = await seller.client.get('/api/repositories/not-a-uuid/lifecycle');
    expect(malformed.status).toBe(404);
    const unknownAdvisory = await seller.client.delete(`${base}/advisories/PKGT-nope`);
    expect(unknownAdvisory.status).toBe(404);
    const served = (await p2(holder, name)).body;
    expect(served?.['security-advisories']).toHaveLength(1);
    expect(served?.packages[name]).toHaveLength(3);
    expect(served?.packages[name]?.[0]?.abandoned).toBeUndefined();
  });

  it('needs a session and the CSRF token', async () => {
    const { pkg } = await licensedPackage();
    const noCsrf = await seller.client.post(`/api/repositories/${pkg.id}/advisories`, advisoryInput, { csrf: false });
    expect(noCsrf.status).toBe(403);
    const anonymous = await fetch(`${app.baseUrl}/api/repositories/${pkg.id}/lifecycle`);
    expect(anonymous.status).toBe(401);
  });
});

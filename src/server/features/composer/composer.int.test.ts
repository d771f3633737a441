import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type ComposerRequestOptions,
  createGrant,
  createHolder,
  createPackage,
  createSeller,
  type FixtureHolder,
  type FixturePackage,
  jsonOf,
  requestOnHost,
} from '../../../../test/composer/repository-fixtures.js';
import { sellerRepositoryAroundTests } from '../../../../test/support/seller-repository.js';
import type { TestUser } from '../../../../test/support/sessions.js';
import type { P2File, PackagesJson } from '../../../contract/composer.js';
import { downloads, grants, packages, packageVersions } from '../../db/schema/index.js';
import { DAY_MS } from '../../lib/clock.js';

// The Composer repository over HTTP, as the composer client sees it: hosts, credentials, the license rules at
// the metadata and dist doors, Last-Modified, and the atomic download limit. The test clock reads 2026-03-01 12:00.

const NOW = new Date('2026-03-01T12:00:00Z');
const ACME_HOST = 'acme.composer.localhost';
const OTHER_HOST = 'globex.composer.localhost';
const BARE_HOST = 'composer.localhost';

type PackageVersionList = P2File['packages'][string];

const repository = sellerRepositoryAroundTests('acme');
let globex: TestUser;

beforeAll(async () => {
  globex = await createSeller(repository.app, 'globex');
});

let packageCounter = 0;
/** A fresh package of the seller with two tags and a branch, and a holder licensed for it with the given terms. */
async function licensedPackage(
  options: Parameters<typeof createGrant>[3] = {},
  seller: TestUser = repository.seller,
): Promise<{ pkg: FixturePackage; holder: FixtureHolder; name: string }> {
  packageCounter++;
  const name = `${seller.slug}/widget-${packageCounter}`;
  const pkg = await createPackage(repository.app, seller, name, [
    { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
    { version: 'v1.1.0', releasedAt: '2026-02-20T10:00:00Z' },
    { version: 'dev-main', kind: 'branch', releasedAt: '2026-02-25T10:00:00Z' },
  ]);
  const holder = await createHolder(repository.app, seller, `holder-${packageCounter}@example.com`);
  await createGrant(repository.app, holder, pkg, options);
  return { pkg, holder, name };
}

function p2Path(name: string, dev = false): string {
  return `/p2/${name}${dev ? '~dev' : ''}.json`;
}

function downloadPath(name: string, version: string): string {
  return `/api/composer/download/${name}/${encodeURIComponent(version)}`;
}

/** The holder's download of `version` of the package `name` from acme's repository, with their token. */
function download(holder: FixtureHolder, name: string, version: string, options: ComposerRequestOptions = {}) {
  return requestOnHost(repository.app, ACME_HOST, downloadPath(name, version), { token: holder.token, ...options });
}

describe('credentials', () => {
  it('answers 401 with WWW-Authenticate and a printable JSON message when no credential is sent', async () => {
    const { name } = await licensedPackage();
    for (const path of ['/packages.json', p2Path(name), downloadPath(name, 'v1.0.0')]) {
      const response = await requestOnHost(repository.app, ACME_HOST, path);
      expect(response.status, path).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Basic realm="Packgate"');
      // Composer prints `warnings` from an error body only under this exact type.
      expect(response.headers['content-type']).toBe('application/json');
      const body = jsonOf<{ error: string; message: string; status: number; warnings: { message: string }[] }>(
        response,
      );
      expect(body.status).toBe(401);
      expect(body.message).toBe('This Composer repository needs the token from your license e-mail.');
      expect(body.warnings[0]!.message).toContain(`composer config bearer.${ACME_HOST}:${repository.app.port}`);
      // Which credentials this host takes and where a holder gets one (issue 32 item 5).
      expect(body.warnings[0]!.message).toContain('HTTP basic works too: the token as the password, any user name');
      expect(body.warnings[0]!.message).toContain(
        `POST http://${ACME_HOST}:${repository.app.port}/api/composer/oidc-token). Your token is in your license e-mail, or create one in the license portal: http://${ACME_HOST}:${repository.app.port}/portal.`,
      );
    }
  });

  it('accepts the token as a bearer and as the HTTP basic password', async () => {
    const { name, holder } = await licensedPackage();
    const bearer = await requestOnHost(repository.app, ACME_HOST, '/packages.json', { token: holder.token });
    const basic = await requestOnHost(repository.app, ACME_HOST, '/packages.json', { basicPassword: holder.token });
    expect(bearer.status).toBe(200);
    expect(basic.status).toBe(200);
    expect(jsonOf<PackagesJson>(bearer)['available-packages']).toEqual([name]);
    expect(jsonOf<PackagesJson>(basic)['available-packages']).toEqual([name]);
    const metadata = await requestOnHost(repository.app, ACME_HOST, p2Path(name), { basicPassword: holder.token });
    expect(metadata.status).toBe(200);
  });

  it('answers 401 to an unknown or replaced token', async () => {
    const { name } = await licensedPackage();
    for (const path of ['/packages.json', p2Path(name), downloadPath(name, 'v1.0.0')]) {
      const response = await requestOnHost(repository.app, ACME_HOST, path, { token: 'pgc_not-a-real-token' });
      expect(response.status, path).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Basic realm="Packgate"');
      expect(jsonOf(response).message).toBe(
        'This token is not valid for this repository: it may have been replaced by a newer one.',
      );
    }
  });

  it('does not serve the repository on the app host', async () => {
    const { holder } = await licensedPackage();
    const response = await requestOnHost(repository.app, 'localhost', '/packages.json', { token: holder.token });
    expect(response.status).toBe(404);
    expect(jsonOf(response).message).toBe('Composer repositories are not served on this host.');
  });

  it('serves the web app at / on a package host', async () => {
    const response = await requestOnHost(repository.app, ACME_HOST, '/');
    // The SPA (or, without a web build, the plain-text hint) renders the Package Access Only page.
    expect([200, 503]).toContain(response.status);
    expect(String(response.headers['content-type'])).toMatch(/^text\/(html|plain)/);
  });
});

describe('packages.json', () => {
  it('lists every package the token is licensed for, and tells each license state only in that package’s p2 file', async () => {
    const holder = await createHolder(repository.app, repository.seller, 'many@example.com');
    const states: Array<[string, Parameters<typeof createGrant>[3], { isActive?: boolean }?]> = [
      ['acme/active', {}],
      ['acme/revoked', { status: 'revoked' }],
      ['acme/expired', { expiresAt: new Date(NOW.getTime() - DAY_MS) }],
      ['acme/frozen', { expiresAt: new Date(NOW.getTime() - DAY_MS), endMode: 'updates' }],
      ['acme/exhausted', { downloadLimit: 2, downloadCount: 2 }],
      ['acme/inactive', {}, { isActive: false }],
    ];
    for (const [name, grant, packageOptions] of states) {
      const pkg = await createPackage(
        repository.app,
        repository.seller,
        name,
        [{ version: 'v1.0.0', releasedAt: '2026-01-01' }],
        packageOptions,
      );
      await createGrant(repository.app, holder, pkg, grant);
    }
    await createPackage(repository.app, repository.seller, 'acme/unlicensed', [
      { version: 'v1.0.0', releasedAt: '2026-01-01' },
    ]);

    const response = await requestOnHost(repository.app, ACME_HOST, '/packages.json', { token: holder.token });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['last-modified']).toBeUndefined();
    const body = jsonOf<PackagesJson>(response);
    expect(body.packages).toEqual([]);
    expect(body['metadata-url']).toBe('/p2/%package%.json');
    expect(body['notify-batch']).toBe('/api/composer/notify-batch');
    // Composer asks for a listed package's p2 file only in projects that use it: that file says what concerns it.
    expect(body['available-packages']).toEqual([
      'acme/active',
      'acme/exhausted',
      'acme/expired',
      'acme/frozen',
      'acme/inactive',
      'acme/revoked',
    ]);
    expect(body.warnings).toBeUndefined();

    const refusals: Array<[string, string]> = [
      ['acme/exhausted', 'Download limit reached for acme/exhausted: 2 of 2 downloads used. Ask the seller for more.'],
      ['acme/expired', 'Your license for acme/expired expired on 2026-02-28. Ask the seller to renew it.'],
      ['acme/inactive', 'acme/inactive is no longer available: the seller has deactivated it.'],
      ['acme/revoked', 'Your license for acme/revoked has been revoked.'],
    ];
    for (const [name, message] of refusals) {
      const p2 = await requestOnHost(repository.app, ACME_HOST, p2Path(name), { token: holder.token });
      expect(p2.status, name).toBe(404);
      expect(p2.headers['content-type']).toBe('application/json');
      expect(jsonOf<{ warnings: unknown }>(p2).warnings).toEqual([{ message, versions: '*' }]);
      // The branches file says nothing more: a project reading both prints the reason once.
      const dev = await requestOnHost(repository.app, ACME_HOST, p2Path(name, true), { token: holder.token });
      expect(dev.status).toBe(404);
      expect(jsonOf<{ warnings?: unknown }>(dev).warnings).toBeUndefined();
    }
    const frozen = await requestOnHost(repository.app, ACME_HOST, p2Path('acme/frozen'), { token: holder.token });
    expect(frozen.status).toBe(200);
    expect(jsonOf<P2File>(frozen).warnings).toEqual([
      {
        message:
          'Your license for acme/frozen ended on 2026-02-28: versions released before then stay installable, later ones are not available. Ask the seller to renew it.',
        versions: '*',
      },
    ]);
    const active = await requestOnHost(repository.app, ACME_HOST, p2Path('acme/active'), { token: holder.token });
    expect(jsonOf<P2File>(active).warnings).toBeUndefined();
  });

  it('warns in the p2 file when a license ends within 7 days, and not before, and never answers that warning 304', async () => {
    const soon = await licensedPackage({ expiresAt: new Date('2026-03-06T12:00:00Z') });
    const later = await licensedPackage({ expiresAt: new Date('2026-03-09T12:00:00Z') });
    const soonIndex = jsonOf<PackagesJson>(
      await requestOnHost(repository.app, ACME_HOST, '/packages.json', { token: soon.holder.token }),
    );
    expect(soonIndex.warnings).toBeUndefined();
    expect(soonIndex['available-packages']).toEqual([soon.name]);
    const soonP2 = await requestOnHost(repository.app, ACME_HOST, p2Path(soon.name), { token: soon.holder.token });
    expect(jsonOf<P2File>(soonP2).warnings).toEqual([
      { message: `Your license for ${soon.name} ends in 5 days (2026-03-06).`, versions: '*' },
    ]);
    // Composer prints warnings only from a body it receives: a 304 would keep the holder from reading it.
    const again = await requestOnHost(repository.app, ACME_HOST, p2Path(soon.name), {
      token: soon.holder.token,
      headers: { 'if-modified-since': String(soonP2.headers['last-modified']) },
    });
    expect(again.status).toBe(200);
    const laterP2 = await requestOnHost(repository.app, ACME_HOST, p2Path(later.name), { token: later.holder.token });
    expect(jsonOf<P2File>(laterP2).warnings).toBeUndefined();
  });
});

describe('p2 metadata', () => {
  it('serves tags and branches as Composer versions with dist URLs on the same host and no source', async () => {
    const { name, holder, pkg } = await licensedPackage();
    const response = await requestOnHost(repository.app, ACME_HOST, p2Path(name), { token: holder.token });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['cache-control']).toBe('private, no-cache');
    expect(response.headers['last-modified']).toBe(new Date('2026-02-01T00:00:00Z').toUTCString());
    const versions = jsonOf<P2File>(response).packages[name]!;
    expect(versions.map((version) => version.version)).toEqual(['v1.1.0', 'v1.0.0']);
    const [newest] = versions as [PackageVersionList[number]];
    expect(newest).toMatchObject({
      name,
      version: 'v1.1.0',
      version_normalized: '1.1.0.0',
      type: 'library',
      require: { php: '>=8.1' },
      time: '2026-02-20T10:00:00+00:00',
      dist: {
        type: 'zip',
        url: `http://${ACME_HOST}:${repository.app.port}/api/composer/download/${name}/v1.1.0`,
        reference: pkg.versions['v1.1.0']!.commit,
        shasum: pkg.versions['v1.1.0']!.distSha1,
      },
    });
    expect(newest).not.toHaveProperty('source');

    const dev = await requestOnHost(repository.app, ACME_HOST, p2Path(name, true), { token: holder.token });
    expect(dev.status).toBe(200);
    expect(jsonOf<P2File>(dev).packages[name]!.map((version) => version.version)).toEqual(['dev-main']);
  });

  it('gzips a p2 file for a client that accepts it, as Composer does', async () => {
    const { name, holder } = await licensedPackage();
    const plain = await requestOnHost(repository.app, ACME_HOST, p2Path(name), { token: holder.token });
    const gzipped = await requestOnHost(repository.app, ACME_HOST, p2Path(name), {
      token: holder.token,
      headers: { 'accept-encoding': 'deflate, gzip, br, zstd' },
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toBe('Authorization, Accept-Encoding');
    expect(gunzipSync(gzipped.body).equals(plain.body)).toBe(true);
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  it('leaves out composer.json keys that would reveal private infrastructure', async () => {
    const holder = await createHolder(repository.app, repository.seller, 'manifest@example.com');
    const pkg = await createPackage(repository.app, repository.seller, 'acme/manifest', [
      {
        version: 'v2.0.0',
        releasedAt: '2026-01-01',
        composerJson: {
          name: 'acme/manifest',
          version: '2.0.0',
          repositories: [{ type: 'vcs', url: 'git@internal.acme.test:secret.git' }],
          config: { 'github-protocols': ['ssh'] },
          source: { type: 'git', url: 'git@internal.acme.test:manifest.git', reference: 'abc' },
          require: { 'acme/other': '^1.0' },
        },
      },
    ]);
    await createGrant(repository.app, holder, pkg);
    const [version] = jsonOf<P2File>(
      await requestOnHost(repository.app, ACME_HOST, p2Path('acme/manifest'), { token: holder.token }),
    ).packages['acme/manifest']!;
    expect(version).not.toHaveProperty('repositories');
    expect(version).not.toHaveProperty('config');
    expect(version).not.toHaveProperty('source');
    expect(version).toMatchObject({ version: 'v2.0.0', require: { 'acme/other': '^1.0' } });
  });

  it('answers a plain 404 for a package the token does not license, and for unknown names', async () => {
    const { holder } = await licensedPackage();
    await createPackage(repository.app, repository.seller, 'acme/not-yours', [
      { version: 'v1.0.0', releasedAt: '2026-01-01' },
    ]);
    for (const path of [
      p2Path('acme/not-yours'),
      p2Path('acme/nothing-here'),
      '/p2/acme/bad name.json',
      '/p2/acme/x.txt',
    ]) {
      const response = await requestOnHost(repository.app, ACME_HOST, path.replace(' ', '%20'), {
        token: holder.token,
      });
      expect(response.status, path).toBe(404);
      expect(jsonOf(response)).not.toHaveProperty('warnings');
    }
  });

  it.each([
    ['revoked', { status: 'revoked' as const }],
    ['expired', { expiresAt: new Date(NOW.getTime() - 1000) }],
    ['at its download limit', { downloadLimit: 3, downloadCount: 3 }],
  ])('answers 404 once the license is %s', async (_state, grant) => {
    const { name, holder } = await licensedPackage(grant);
    expect((await requestOnHost(repository.app, ACME_HOST, p2Path(name), { token: holder.token })).status).toBe(404);
    expect((await requestOnHost(repository.app, ACME_HOST, p2Path(name, true), { token: holder.token })).status).toBe(
      404,
    );
  });

  it('answers 404 for a deactivated package', async () => {
    const { name, holder, pkg } = await licensedPackage();
    await repository.app.ctx.db.update(packages).set({ isActive: false }).where(eq(packages.id, pkg.id));
    expect((await requestOnHost(repository.app, ACME_HOST, p2Path(name), { token: holder.token })).status).toBe(404);
  });

  it('shows a frozen license only the tags released before its end, and no branches', async () => {
    const end = new Date('2026-02-15T00:00:00Z');
    const { name, holder } = await licensedPackage({ expiresAt: end, endMode: 'updates' });
    const response = await requestOnHost(repository.app, ACME_HOST, p2Path(name), { token: holder.token });
    expect(response.status).toBe(200);
    expect(jsonOf<P2File>(response).packages[name]!.map((version) => version.version)).toEqual(['v1.0.0']);
    // The freeze began after the versions last changed: it is what changed the answer.
    expect(response.headers['last-modified']).toBe(end.toUTCString());
    const dev = await requestOnHost(repository.app, ACME_HOST, p2Path(name, true), { token: holder.token });
    expect(jsonOf<P2File>(dev).packages[name]).toEqual([]);
  });

  it('shows a frozen license everything until its end date', async () => {
    const { name, holder } = await licensedPackage({ expiresAt: new Date('2026-04-01'), endMode: 'updates' });
    const response = await requestOnHost(repository.app, ACME_HOST, p2Path(name), { token: holder.token });
    expect(jsonOf<P2File>(response).packages[name]!.map((version) => version.version)).toEqual(['v1.1.0', 'v1.0.0']);
  });
});

describe('Last-Modified and 304', () => {
  it('answers 304 to an authorized If-Modified-Since, and 200 once the versions change', async () => {
    const { name, holder, pkg } = await licensedPackage();
    const first = await requestOnHost(repository.app, ACME_HOST, p2Path(name), { token: holder.token });
    const lastModified = String(first.headers['last-modified']);
    const again = await requestOnHost(repository.app, ACME_HOST, p2Path(name), {
      token: holder.token,
      headers: { 'if-modified-since': lastModified },
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['last-modified']).toBe(lastModified);
    // A validator that is not Last-Modified's own text (a later date, as another cache may send) is read as a date.
    const later = await requestOnHost(repository.app, ACME_HOST, p2Path(name), {
      token: holder.token,
      headers: { 'if-modified-since': new Date(Date.parse(lastModified) + 60_000).toUTCString() },
    });
    expect(later.status).toBe(304);

    await repository.app.ctx.db
      .update(packages)
      .set({ metadataUpdatedAt: new Date('2026-02-28T00:00:00Z') })
      .where(eq(packages.id, pkg.id));
    const changed = await requestOnHost(repository.app, ACME_HOST, p2Path(name), {
      token: holder.token,
      headers: { 'if-modified-since': lastModified },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers['last-modified']).toBe(new Date('2026-02-28T00:00:00Z').toUTCString());
  });

  it('answers 200 after the seller changes the grant, even when the versions did not change', async () => {
    const { name, holder, pkg } = await licensedPackage({ expiresAt: new Date('2026-02-15'), endMode: 'updates' });
    const frozen = await requestOnHost(repository.app, ACME_HOST, p2Path(name), { token: holder.token });
    expect(jsonOf<P2File>(frozen).packages[name]).toHaveLength(1);
    // Renewed: the grant's own change time moves Last-Modified past the freeze's.
    await repository.app.ctx.db
      .update(grants)
      .set({ expiresAt: new Date('2027-01-01') })
      .where(eq(grants.packageId, pkg.id));
    const renewed = await requestOnHost(repository.app, ACME_HOST, p2Path(name), {
      token: holder.token,
      headers: { 'if-modified-since': String(frozen.headers['last-modified']) },
    });
    expect(renewed.status).toBe(200);
    expect(jsonOf<P2File>(renewed).packages[name]).toHaveLength(2);
  });

  it('never answers 304 to a request that is not authorized', async () => {
    const { name, holder, pkg } = await licensedPackage();
    const stranger = await createHolder(repository.app, repository.seller, 'stranger@example.com');
    const foreign = await createHolder(repository.app, globex, 'foreign@example.com');
    const future = { 'if-modified-since': new Date('2030-01-01').toUTCString() };
    expect((await requestOnHost(repository.app, ACME_HOST, p2Path(name), { headers: future })).status).toBe(401);
    expect(
      (await requestOnHost(repository.app, ACME_HOST, p2Path(name), { token: 'pgc_unknown', headers: future })).status,
    ).toBe(401);
    expect(
      (await requestOnHost(repository.app, ACME_HOST, p2Path(name), { token: stranger.token, headers: future })).status,
    ).toBe(404);
    expect(
      (await requestOnHost(repository.app, ACME_HOST, p2Path(name), { token: foreign.token, headers: future })).status,
    ).toBe(404);
    await repository.app.ctx.db.update(grants).set({ status: 'revoked' }).where(eq(grants.packageId, pkg.id));
    expect(
      (await requestOnHost(repository.app, ACME_HOST, p2Path(name), { token: holder.token, headers: future })).status,
    ).toBe(404);
  });
});

describe('dist downloads', () => {
  it('streams the zip, counts the download and records it', async () => {
    const { name, holder, pkg } = await licensedPackage({ downloadLimit: 5 });
    const response = await download(holder, name, 'v1.0.0');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-length']).toBe(String(pkg.versions['v1.0.0']!.zip.length));
    expect(response.body.equals(pkg.versions['v1.0.0']!.zip)).toBe(true);

    const [grant] = await repository.app.ctx.db.select().from(grants).where(eq(grants.packageId, pkg.id));
    expect(grant!.downloadCount).toBe(1);
    expect(grant!.lastUsedAt?.toISOString()).toBe(NOW.toISOString());
    const recorded = await repository.app.ctx.db.select().from(downloads).where(eq(downloads.packageId, pkg.id));
    expect(recorded.map((row) => [row.grantId, row.version])).toEqual([[grant!.id, 'v1.0.0']]);
    // The client's network (loopback's /24) feeds the seller's sharing signal; the address itself is never stored.
    expect(recorded[0]!.clientNetwork).toBe('127.0.0.0/24');
  });

  it('sends a zip of several read chunks from its file whole, with the headers of a small one, and counts it', async () => {
    const { name, holder, pkg } = await licensedPackage({ downloadLimit: 5 });
    await download(holder, name, 'v1.0.0');
    const [version] = await repository.app.ctx.db
      .select()
      .from(packageVersions)
      .where(and(eq(packageVersions.packageId, pkg.id), eq(packageVersions.version, 'v1.0.0')));
    // The stored zip, replaced by one of a size a real package reaches (file-sender.ts reads 256 KB at a time).
    const large = randomBytes(3 * 256 * 1024 + 4321);
    await repository.app.ctx.storage.put(version!.distKey!, large, { contentType: 'application/zip' });

    const response = await download(holder, name, 'v1.0.0');
    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'application/zip',
      'content-length': String(large.length),
      'content-disposition': `attachment; filename="${name.replace('/', '-')}-v1.0.0.zip"`,
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.body.equals(large)).toBe(true);
    const [grant] = await repository.app.ctx.db.select().from(grants).where(eq(grants.packageId, pkg.id));
    expect(grant!.downloadCount).toBe(2);
  });

  it('answers a download without a limit before counting it, and counts it before any other request is answered', async () => {
    const { name, holder, pkg } = await licensedPackage();
    const response = await download(holder, name, 'v1.1.0');
    expect(response.status).toBe(200);
    expect(response.body.equals(pkg.versions['v1.1.0']!.zip)).toBe(true);

    // A seller's page, the API, anything but another download: it waits for the counts still to be written.
    expect((await fetch(new URL('/api/health', repository.app.baseUrl))).status).toBe(200);
    const [grant] = await repository.app.ctx.db.select().from(grants).where(eq(grants.packageId, pkg.id));
    expect(grant!.downloadCount).toBe(1);
    expect(grant!.lastUsedAt?.toISOString()).toBe(NOW.toISOString());
    const recorded = await repository.app.ctx.db.select().from(downloads).where(eq(downloads.packageId, pkg.id));
    expect(recorded.map((row) => [row.grantId, row.version, row.clientNetwork])).toEqual([
      [grant!.id, 'v1.1.0', '127.0.0.0/24'],
    ]);
  });

  it('does not answer HEAD, which would count a download without delivering one', async () => {
    const { name, holder, pkg } = await licensedPackage();
    const response = await download(holder, name, 'v1.0.0', { method: 'HEAD' });
    expect(response.status).not.toBe(200);
    const [grant] = await repository.app.ctx.db.select().from(grants).where(eq(grants.packageId, pkg.id));
    expect(grant!.downloadCount).toBe(0);
  });

  it('serves branches and /latest, the newest stable tag', async () => {
    const { name, holder, pkg } = await licensedPackage();
    const branch = await download(holder, name, 'dev-main');
    expect(branch.body.equals(pkg.versions['dev-main']!.zip)).toBe(true);
    const latest = await requestOnHost(repository.app, ACME_HOST, `/api/composer/download/${name}/latest`, {
      token: holder.token,
    });
    expect(latest.status).toBe(200);
    expect(latest.body.equals(pkg.versions['v1.1.0']!.zip)).toBe(true);
  });

  it.each([
    ['revoked', { status: 'revoked' as const }, (name: string) => `Your license for ${name} has been revoked.`],
    [
      'expired',
      { expiresAt: new Date('2026-02-27T08:00:00Z') },
      (name: string) => `Your license for ${name} expired on 2026-02-27. Ask the seller to renew it.`,
    ],
    [
      'at its download limit',
      { downloadLimit: 10, downloadCount: 10 },
      (name: string) => `Download limit reached for ${name}: 10 of 10 downloads used. Ask the seller for more.`,
    ],
  ])('refuses a license that is %s with 403 and a message Composer prints', async (_state, grant, message) => {
    const { name, holder } = await licensedPackage(grant);
    const response = await download(holder, name, 'v1.0.0');
    expect(response.status).toBe(403);
    expect(response.headers['content-type']).toBe('application/json');
    const body = jsonOf<{ message: string; status: number; warnings: { message: string; versions: string }[] }>(
      response,
    );
    expect(body.message).toBe(message(name));
    expect(body.status).toBe(403);
    // Non-interactive Composer quotes the status line in its error.
    expect(response.statusMessage).toBe(message(name));
    expect(body.warnings).toEqual([{ message: message(name), versions: '*' }]);
  });

  it('refuses a deactivated package', async () => {
    const { name, holder, pkg } = await licensedPackage();
    await repository.app.ctx.db.update(packages).set({ isActive: false }).where(eq(packages.id, pkg.id));
    const response = await download(holder, name, 'v1.0.0');
    expect(response.status).toBe(403);
    expect(jsonOf(response).message).toBe(`${name} is no longer available: the seller has deactivated it.`);
  });

  it('lets a frozen license download only what was released before its end', async () => {
    const { name, holder, pkg } = await licensedPackage({
      expiresAt: new Date('2026-02-15T00:00:00Z'),
      endMode: 'updates',
    });
    const old = await download(holder, name, 'v1.0.0');
    expect(old.status).toBe(200);
    const newer = await download(holder, name, 'v1.1.0');
    expect(newer.status).toBe(403);
    expect(jsonOf(newer).message).toBe(
      `Your license for ${name} ended on 2026-02-15: v1.1.0 is not covered, only versions released before then. Ask the seller to renew it.`,
    );
    expect((await download(holder, name, 'dev-main')).status).toBe(403);
    const latest = await requestOnHost(repository.app, ACME_HOST, `/api/composer/download/${name}/latest`, {
      token: holder.token,
    });
    expect(latest.body.equals(pkg.versions['v1.0.0']!.zip)).toBe(true);
  });

  it('answers 404 for an unlicensed package and an unknown version', async () => {
    const { name, holder } = await licensedPackage();
    await createPackage(repository.app, repository.seller, 'acme/not-licensed', [
      { version: 'v1.0.0', releasedAt: '2026-01-01' },
    ]);
    const unlicensed = await download(holder, 'acme/not-licensed', 'v1.0.0');
    expect(unlicensed.status).toBe(404);
    const unknown = await download(holder, name, 'v9.9.9');
    expect(unknown.status).toBe(404);
    expect(jsonOf(unknown).message).toBe(`${name} has no version v9.9.9 in this repository.`);
  });

  it('serves a branch whose name holds a slash', async () => {
    const holder = await createHolder(repository.app, repository.seller, 'slash@example.com');
    const pkg = await createPackage(repository.app, repository.seller, 'acme/slashed', [
      { version: 'dev-feature/login', kind: 'branch', releasedAt: '2026-01-01' },
    ]);
    await createGrant(repository.app, holder, pkg);
    const metadata = await requestOnHost(repository.app, ACME_HOST, p2Path('acme/slashed', true), {
      token: holder.token,
    });
    const [version] = jsonOf<P2File>(metadata).packages['acme/slashed']!;
    const url = new URL(version!.dist.url);
    const response = await requestOnHost(repository.app, ACME_HOST, url.pathname, { token: holder.token });
    expect(response.status).toBe(200);
    expect(response.body.equals(pkg.versions['dev-feature/login']!.zip)).toBe(true);
  });

  it('gives exactly 10 of 100 concurrent downloads against a limit of 10', async () => {
    const { name, holder, pkg } = await licensedPackage({ downloadLimit: 10 });
    const responses = await Promise.all(Array.from({ length: 100 }, () => download(holder, name, 'v1.1.0')));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 403)).toHaveLength(90);
    for (const response of responses.filter((candidate) => candidate.status === 200)) {
      expect(response.body.equals(pkg.versions['v1.1.0']!.zip)).toBe(true);
    }
    const refused = responses.find((response) => response.status === 403)!;
    expect(jsonOf(refused).message).toBe(
      `Download limit reached for ${name}: 10 of 10 downloads used. Ask the seller for more.`,
    );
    const [grant] = await repository.app.ctx.db.select().from(grants).where(eq(grants.packageId, pkg.id));
    expect(grant!.downloadCount).toBe(10);
    expect(await repository.app.ctx.db.select().from(downloads).where(eq(downloads.packageId, pkg.id))).toHaveLength(
      10,
    );
  });
});

describe('tenancy across hosts', () => {
  it("gives seller A's token nothing of seller B on B's host", async () => {
    const mine = await licensedPackage({}, repository.seller);
    const theirs = await licensedPackage({}, globex);
    const packagesJson = await requestOnHost(repository.app, OTHER_HOST, '/packages.json', {
      token: mine.holder.token,
    });
    expect(packagesJson.status).toBe(200);
    expect(jsonOf<PackagesJson>(packagesJson)['available-packages']).toEqual([]);
    for (const path of [
      p2Path(theirs.name),
      p2Path(mine.name),
      downloadPath(theirs.name, 'v1.0.0'),
      downloadPath(mine.name, 'v1.0.0'),
    ]) {
      const response = await requestOnHost(repository.app, OTHER_HOST, path, { token: mine.holder.token });
      expect(response.status, path).toBe(404);
    }
    // And on a host that names no seller at all.
    const nobody = await requestOnHost(repository.app, 'nobody.composer.localhost', p2Path(mine.name), {
      token: mine.holder.token,
    });
    expect(nobody.status).toBe(404);
  });

  it('lets the token alone decide the seller on the bare composer domain', async () => {
    const mine = await licensedPackage({}, repository.seller);
    const theirs = await licensedPackage({}, globex);
    const body = jsonOf<PackagesJson>(
      await requestOnHost(repository.app, BARE_HOST, '/packages.json', { token: mine.holder.token }),
    );
    expect(body['available-packages']).toEqual([mine.name]);
    const metadata = await requestOnHost(repository.app, BARE_HOST, p2Path(mine.name), { token: mine.holder.token });
    expect(metadata.status).toBe(200);
    expect(jsonOf<P2File>(metadata).packages[mine.name]![0]!.dist.url).toBe(
      `http://${BARE_HOST}:${repository.app.port}/api/composer/download/${mine.name}/v1.1.0`,
    );
    expect(
      (await requestOnHost(repository.app, BARE_HOST, p2Path(theirs.name), { token: mine.holder.token })).status,
    ).toBe(404);
    expect(
      (await requestOnHost(repository.app, BARE_HOST, downloadPath(mine.name, 'v1.0.0'), { token: mine.holder.token }))
        .status,
    ).toBe(200);
  });
});

describe('notify-batch', () => {
  it('acknowledges what Composer reports without counting it as a download', async () => {
    const { name, holder, pkg } = await licensedPackage();
    const response = await requestOnHost(repository.app, ACME_HOST, '/api/composer/notify-batch', {
      method: 'POST',
      token: holder.token,
      body: JSON.stringify({ downloads: [{ name, version: '1.1.0.0' }] }),
    });
    expect(response.status).toBe(200);
    expect(jsonOf(response)).toEqual({ status: 'success' });
    expect(await repository.app.ctx.db.select().from(downloads).where(eq(downloads.packageId, pkg.id))).toHaveLength(0);
    const versions = await repository.app.ctx.db
      .select()
      .from(packageVersions)
      .where(eq(packageVersions.packageId, pkg.id));
    expect(versions).toHaveLength(3);
  });
});

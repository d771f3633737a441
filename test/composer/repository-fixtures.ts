import { createHash } from 'node:crypto';
import { type Agent, request as httpRequest } from 'node:http';
import {
  customers,
  grants,
  holderTokens,
  packages,
  packageVersions,
  productPackages,
  products,
} from '../../src/server/db/schema/index.js';
import { generateToken, sha256Hex } from '../../src/server/lib/crypto.js';
import { createTestUser, type TestUser } from '../support/sessions.js';
import type { TestApp } from '../support/test-app.js';
import { buildZip } from '../support/zip-fixture.js';

// Composer repository fixtures written straight to the database and storage (a seller, a package with versions
// and zips, a license holder with a known token, grants), and an HTTP client that can name any Host: Node's
// resolver does not map `*.localhost` to loopback, and fetch() does not let a caller set Host.

export type FixtureVersion = {
  version: string;
  kind?: 'tag' | 'branch';
  normalizedVersion?: string;
  /** The commit's author date. */
  releasedAt: string | Date;
  /** When Packgate first saw the version (what update windows compare with); `releasedAt` unless given. */
  publishedAt?: string | Date;
  composerJson?: Record<string, unknown>;
  /** Leave the version without a built zip. */
  withoutDist?: boolean;
};

export type FixturePackage = typeof packages.$inferSelect & {
  versions: Record<string, typeof packageVersions.$inferSelect & { zip: Buffer }>;
};

function normalizedFor(version: string, kind: 'tag' | 'branch'): string {
  if (kind === 'branch') return version.startsWith('dev-') ? version : `${version.replace(/\.x-dev$/, '')}.9999999-dev`;
  const parts = version.replace(/^v/, '').split('.');
  while (parts.length < 4) parts.push('0');
  return parts.join('.');
}

export async function createSeller(app: TestApp, slug?: string): Promise<TestUser> {
  return createTestUser(app, { slug });
}

export async function createPackage(
  app: TestApp,
  seller: TestUser,
  name: string,
  versions: FixtureVersion[],
  options: { isActive?: boolean; metadataUpdatedAt?: Date } = {},
): Promise<FixturePackage> {
  const [row] = await app.ctx.db
    .insert(packages)
    .values({
      ownerId: seller.id,
      codeHost: 'local',
      repositoryId: name,
      repositoryFullName: name,
      name,
      description: `The ${name} package`,
      isActive: options.isActive ?? true,
      syncStatus: 'ready',
      metadataUpdatedAt: options.metadataUpdatedAt ?? new Date('2026-02-01T00:00:00Z'),
    })
    .returning();
  const result: FixturePackage = { ...row!, versions: {} };
  for (const spec of versions) {
    const kind = spec.kind ?? 'tag';
    const commit = createHash('sha1').update(`${name}@${spec.version}`).digest('hex');
    // A real archive, so that the real composer can install a fixture's version.
    const zip = buildZip({
      'composer.json': `${JSON.stringify({ name, description: `The ${name} package` }, null, 4)}\n`,
      'VERSION.txt': `${name} ${spec.version} ${commit}\n`,
    });
    const distKey = `dists/${row!.id}/${commit}.zip`;
    if (!spec.withoutDist) await app.ctx.storage.put(distKey, zip, { contentType: 'application/zip' });
    const [versionRow] = await app.ctx.db
      .insert(packageVersions)
      .values({
        packageId: row!.id,
        version: spec.version,
        normalizedVersion: spec.normalizedVersion ?? normalizedFor(spec.version, kind),
        kind,
        reference: kind === 'tag' ? spec.version : spec.version.replace(/^dev-/, ''),
        commit,
        releasedAt: new Date(spec.releasedAt),
        publishedAt: new Date(spec.publishedAt ?? spec.releasedAt),
        composerJson: spec.composerJson ?? {
          name,
          description: `The ${name} package`,
          type: 'library',
          require: { php: '>=8.1' },
          autoload: { 'psr-4': { 'Acme\\': 'src/' } },
        },
        distKey: spec.withoutDist ? null : distKey,
        distSha1: spec.withoutDist ? null : createHash('sha1').update(zip).digest('hex'),
        distSize: spec.withoutDist ? null : zip.length,
      })
      .returning();
    result.versions[spec.version] = { ...versionRow!, zip };
  }
  return result;
}

/** A license holder; `tokenId` is the holder_tokens row of their first named token. */
export type FixtureHolder = { id: string; token: string; email: string; tokenId?: string };

export async function createHolder(
  app: TestApp,
  seller: TestUser,
  email = 'holder@example.com',
): Promise<FixtureHolder> {
  const token = generateToken('pgc');
  const [row] = await app.ctx.db.insert(customers).values({ sellerId: seller.id, email }).returning();
  // The holder's token is their first named token (issue 32), as migration 0028 made of every existing one.
  const [named] = await app.ctx.db
    .insert(holderTokens)
    .values({ customerId: row!.id, name: 'Composer token', tokenHash: sha256Hex(token), tokenHint: token.slice(-4) })
    .returning();
  return { id: row!.id, token, email, tokenId: named!.id };
}

export type GrantOptions = Partial<
  Pick<
    typeof grants.$inferInsert,
    | 'status'
    | 'expiresAt'
    | 'endMode'
    | 'downloadLimit'
    | 'downloadCount'
    | 'kind'
    | 'versionConstraint'
    | 'minimumStability'
    | 'seats'
  >
>;

const GRANT_CREATED_AT = new Date('2026-01-01T00:00:00Z');

/** A grant for the holder covering a package or a product, written straight to the database. */
async function insertGrant(
  app: TestApp,
  holder: FixtureHolder,
  covers: { packageId: string } | { productId: string },
  options: GrantOptions,
): Promise<typeof grants.$inferSelect> {
  const [row] = await app.ctx.db
    .insert(grants)
    .values({
      customerId: holder.id,
      ...covers,
      kind: options.kind ?? 'manual',
      // Fixed, so that Last-Modified (which the grant's change time takes part in) is what a test expects.
      createdAt: GRANT_CREATED_AT,
      updatedAt: GRANT_CREATED_AT,
      ...options,
    })
    .returning();
  return row!;
}

export function createGrant(
  app: TestApp,
  holder: FixtureHolder,
  pkg: { id: string },
  options: GrantOptions = {},
): Promise<typeof grants.$inferSelect> {
  return insertGrant(app, holder, { packageId: pkg.id }, options);
}

/** A product of the seller's packages (issue 31), written straight to the database. */
export async function createProduct(
  app: TestApp,
  seller: TestUser,
  name: string,
  members: { id: string }[],
): Promise<typeof products.$inferSelect> {
  const [row] = await app.ctx.db.insert(products).values({ ownerId: seller.id, name }).returning();
  if (members.length > 0) {
    await app.ctx.db.insert(productPackages).values(members.map((pkg) => ({ productId: row!.id, packageId: pkg.id })));
  }
  return row!;
}

/** A license for a product: it covers every package in the product, as the product is at each request. */
export function createProductGrant(
  app: TestApp,
  holder: FixtureHolder,
  product: { id: string },
  options: GrantOptions = {},
): Promise<typeof grants.$inferSelect> {
  return insertGrant(app, holder, { productId: product.id }, options);
}

export type RawResponse = {
  status: number;
  statusMessage: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
};

export type ComposerRequestOptions = {
  method?: string;
  /** Sent as `Authorization: Bearer`. */
  token?: string;
  /** Sent as HTTP basic with this password (and username `token`, as any username works). */
  basicPassword?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The connection's agent (a keep-alive one sends several requests on one connection); a new connection by default. */
  agent?: Agent;
};

/** One HTTP request to the test app on 127.0.0.1 with the given Host header. */
export function requestOnHost(
  app: TestApp,
  host: string,
  path: string,
  options: ComposerRequestOptions = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { host: `${host}:${app.port}`, ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.basicPassword !== undefined) {
    headers.authorization = `Basic ${Buffer.from(`token:${options.basicPassword}`).toString('base64')}`;
  }
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port: app.port,
        path,
        method: options.method ?? 'GET',
        headers,
        agent: options.agent ?? false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            statusMessage: response.statusMessage ?? '',
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

export function jsonOf<T = Record<string, unknown>>(response: RawResponse): T {
  return JSON.parse(response.body.toString('utf8')) as T;
}

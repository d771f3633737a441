import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../src/server/context.js';
import {
  customers,
  grants,
  holderTokens,
  packages,
  packageVersions,
  sessions,
  users,
} from '../../src/server/db/schema/index.js';
import { sessionCookieName } from '../../src/server/http/session.js';
import { generateToken, sha256Hex } from '../../src/server/lib/crypto.js';
import { execFileAsync } from './processes.js';

// What the benchmark serves, written straight to the database and storage: a seller, packages whose versions have
// realistic composer.json files and real zips (Composer extracts them), a license holder and their grants.

export type SeededPackage = { id: string; name: string; versions: string[] };

export async function seedSeller(ctx: AppContext, slug: string): Promise<{ id: string; slug: string }> {
  const [seller] = await ctx.db
    .insert(users)
    .values({ userType: 'seller', email: `${slug}@bench.test`, slug, displayName: 'Bench Seller' })
    .returning();
  return { id: seller!.id, slug };
}

/** A day-long session of the seller, as signing in makes one: answers its cookie's name and value. */
export async function seedSellerSession(ctx: AppContext, sellerId: string): Promise<{ name: string; value: string }> {
  const value = generateToken('pgs');
  const now = new Date();
  await ctx.db.insert(sessions).values({
    idHash: sha256Hex(value),
    userId: sellerId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + 86_400_000),
  });
  return { name: sessionCookieName(ctx), value };
}

function manifestFor(name: string, index: number): Record<string, unknown> {
  const [vendor, project] = name.split('/') as [string, string];
  const namespace = `${vendor.charAt(0).toUpperCase()}${vendor.slice(1)}\\${project.replace(/(^|-)(\w)/g, (_, _dash, letter: string) => letter.toUpperCase())}\\`;
  return {
    name,
    description: `Benchmark package ${index}: a library with the usual amount of metadata.`,
    type: 'library',
    keywords: ['benchmark', 'composer', 'private'],
    homepage: 'https://example.com/bench',
    license: 'proprietary',
    authors: [{ name: 'Bench Author', email: 'author@bench.test', role: 'Developer' }],
    require: { php: '>=8.1' },
    'require-dev': { 'phpunit/phpunit': '^10.5' },
    autoload: { 'psr-4': { [namespace]: 'src/' } },
    'autoload-dev': { 'psr-4': { [`${namespace}Tests\\`]: 'tests/' } },
    extra: { 'branch-alias': { 'dev-main': '1.x-dev' } },
    support: { email: 'support@bench.test' },
  };
}

/** A zip like `git archive` builds: one top folder holding composer.json and a source file. */
async function buildZip(
  workDir: string,
  name: string,
  version: string,
  manifest: Record<string, unknown>,
): Promise<Buffer> {
  const folder = `${name.replace('/', '-')}-${version}`;
  const root = path.join(workDir, 'zips', folder);
  await mkdir(path.join(root, 'src'), { recursive: true });
  await writeFile(path.join(root, 'composer.json'), `${JSON.stringify(manifest, null, 4)}\n`);
  await writeFile(path.join(root, 'src', 'Version.php'), `<?php\n\nreturn '${version}';\n`);
  await writeFile(path.join(root, 'README.md'), `# ${name}\n\n${'Documentation line.\n'.repeat(40)}`);
  const zipFile = path.join(workDir, 'zips', `${folder}.zip`);
  await execFileAsync('zip', ['-qrX', zipFile, folder], { cwd: path.join(workDir, 'zips') });
  const bytes = await readFile(zipFile);
  await rm(root, { recursive: true, force: true });
  return bytes;
}

/** A synced package of the seller's on the local code host, as a sync leaves it. */
async function insertReadyPackage(
  ctx: AppContext,
  sellerId: string,
  name: string,
  details: Pick<typeof packages.$inferInsert, 'description' | 'metadataUpdatedAt'> = {},
): Promise<{ id: string }> {
  const [pkg] = await ctx.db
    .insert(packages)
    .values({
      ownerId: sellerId,
      codeHost: 'local',
      repositoryId: name,
      repositoryFullName: name,
      name,
      ...details,
      syncStatus: 'ready',
    })
    .returning();
  return pkg!;
}

/** Stores `zip` as the dist of one version of the package and records the version, as a sync does. */
async function storeVersion(
  ctx: AppContext,
  pkg: { id: string; name: string },
  spec: { version: string; normalized: string; kind: 'tag' | 'branch'; releasedAt: Date },
  composerJson: Record<string, unknown>,
  zip: Buffer,
): Promise<void> {
  const commit = createHash('sha1').update(`${pkg.name}@${spec.version}`).digest('hex');
  const distKey = `dists/${pkg.id}/${commit}.zip`;
  await ctx.storage.put(distKey, zip, { contentType: 'application/zip' });
  await ctx.db.insert(packageVersions).values({
    packageId: pkg.id,
    version: spec.version,
    normalizedVersion: spec.normalized,
    kind: spec.kind,
    reference: spec.kind === 'tag' ? spec.version : 'main',
    commit,
    releasedAt: spec.releasedAt,
    publishedAt: spec.releasedAt,
    composerJson,
    distKey,
    distSha1: createHash('sha1').update(zip).digest('hex'),
    distSize: zip.length,
  });
}

/** A package with `tagCount` tags (v1.0.0, v1.1.0, ...) and a main branch, every version with its zip stored. */
export async function seedPackage(
  ctx: AppContext,
  workDir: string,
  sellerId: string,
  name: string,
  index: number,
  tagCount: number,
): Promise<SeededPackage> {
  const pkg = await insertReadyPackage(ctx, sellerId, name, {
    description: `Benchmark package ${index}`,
    metadataUpdatedAt: new Date(Date.now() - 3_600_000),
  });
  const manifest = manifestFor(name, index);
  const versions = [
    ...Array.from({ length: tagCount }, (_, minor) => ({
      version: `v1.${minor}.0`,
      normalized: `1.${minor}.0.0`,
      kind: 'tag' as const,
    })),
    { version: 'dev-main', normalized: 'dev-main', kind: 'branch' as const },
  ];
  for (const [position, spec] of versions.entries()) {
    const zip = await buildZip(workDir, name, spec.version, manifest);
    const releasedAt = new Date(Date.UTC(2025, 0, 1 + position * 7));
    await storeVersion(ctx, { id: pkg.id, name }, { ...spec, releasedAt }, manifest, zip);
  }
  return { id: pkg.id, name, versions: versions.map((spec) => spec.version) };
}

/** A holder's named Composer token (holder_tokens decides access since migration 0028), stored as the app does. */
export function holderToken(customerId: string, token: string) {
  return { customerId, name: 'Bench laptop', tokenHash: sha256Hex(token), tokenHint: token.slice(-4) };
}

/** A license holder of the seller with a grant for each package; returns their token. */
export async function seedHolder(ctx: AppContext, sellerId: string, packageIds: string[]): Promise<string> {
  const token = generateToken('pgc');
  const [holder] = await ctx.db
    .insert(customers)
    .values({ sellerId, email: `holder-${randomBytes(3).toString('hex')}@bench.test` })
    .returning();
  await ctx.db.insert(holderTokens).values(holderToken(holder!.id, token));
  for (const packageId of packageIds) {
    await ctx.db.insert(grants).values({ customerId: holder!.id, packageId, kind: 'manual' });
  }
  return token;
}

/** A package with one tag whose zip is `size` bytes of noise (nothing to compress), for the dist throughput figure. */
export async function seedLargeDist(
  ctx: AppContext,
  sellerId: string,
  name: string,
  size: number,
): Promise<SeededPackage> {
  const pkg = await insertReadyPackage(ctx, sellerId, name);
  const releasedAt = new Date(Date.UTC(2025, 0, 1));
  const tag = { version: 'v1.0.0', normalized: '1.0.0.0', kind: 'tag' as const, releasedAt };
  await storeVersion(ctx, { id: pkg.id, name }, tag, manifestFor(name, 0), randomBytes(size));
  return { id: pkg.id, name, versions: ['v1.0.0'] };
}

export type ScaleSeed = {
  holders: Array<{ token: string; packageName: string }>;
  packages: Array<{ id: string; name: string }>;
};

/**
 * `packageCount` packages with three tags each (metadata only, no zips), added to `options.packages` (seeded before),
 * and `tokenCount` license holders, each licensed for one of them; returns every holder's token and package name,
 * and the packages. Bulk inserts, a thousand rows at a time; `options.prefix` keeps names apart between calls.
 */
export async function seedScale(
  ctx: AppContext,
  sellerId: string,
  packageCount: number,
  tokenCount: number,
  options: { prefix?: string; packages?: ScaleSeed['packages'] } = {},
): Promise<ScaleSeed> {
  const prefix = options.prefix ?? 'scale';
  const packageRows: ScaleSeed['packages'] = [...(options.packages ?? [])];
  for (let start = 0; start < packageCount; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, packageCount - start) }, (_, offset) => {
      const name = `${prefix}/pkg-${String(start + offset).padStart(4, '0')}`;
      return {
        ownerId: sellerId,
        codeHost: 'local' as const,
        repositoryId: name,
        repositoryFullName: name,
        name,
        syncStatus: 'ready' as const,
      };
    });
    packageRows.push(
      ...(await ctx.db.insert(packages).values(batch).returning({ id: packages.id, name: packages.name })),
    );
  }
  const versionRows = packageRows.slice(packageRows.length - packageCount).flatMap((pkg, index) =>
    [0, 1, 2].map((minor) => ({
      packageId: pkg.id,
      version: `v1.${minor}.0`,
      normalizedVersion: `1.${minor}.0.0`,
      kind: 'tag' as const,
      reference: `v1.${minor}.0`,
      commit: createHash('sha1').update(`${pkg.name}@${minor}`).digest('hex'),
      releasedAt: new Date(Date.UTC(2025, 0, 1 + minor * 7)),
      publishedAt: new Date(Date.UTC(2025, 0, 1 + minor * 7)),
      composerJson: manifestFor(pkg.name, index),
      distSha1: createHash('sha1').update(`${pkg.name}@${minor}`).digest('hex'),
    })),
  );
  for (let start = 0; start < versionRows.length; start += 1000) {
    await ctx.db.insert(packageVersions).values(versionRows.slice(start, start + 1000));
  }
  const holders: Array<{ token: string; packageName: string }> = [];
  for (let start = 0; start < tokenCount; start += 1000) {
    const tokens = Array.from({ length: Math.min(1000, tokenCount - start) }, () => generateToken('pgc'));
    const inserted = await ctx.db
      .insert(customers)
      .values(tokens.map((_, offset) => ({ sellerId, email: `${prefix}-${start + offset}@bench.test` })))
      .returning({ id: customers.id });
    await ctx.db.insert(holderTokens).values(inserted.map((holder, offset) => holderToken(holder.id, tokens[offset]!)));
    await ctx.db.insert(grants).values(
      inserted.map((holder, offset) => ({
        customerId: holder.id,
        packageId: packageRows[(start + offset) % packageRows.length]!.id,
        kind: 'manual' as const,
      })),
    );
    for (const [offset, token] of tokens.entries()) {
      holders.push({ token, packageName: packageRows[(start + offset) % packageRows.length]!.name });
    }
  }
  return { holders, packages: packageRows };
}

/** A license holder with one grant; returns the token and the grant's id (the revocation figure revokes it). */
export async function seedHolderWithGrant(
  ctx: AppContext,
  sellerId: string,
  packageId: string,
): Promise<{ token: string; grantId: string }> {
  const token = generateToken('pgc');
  const [holder] = await ctx.db
    .insert(customers)
    .values({ sellerId, email: `holder-${randomBytes(4).toString('hex')}@bench.test` })
    .returning();
  await ctx.db.insert(holderTokens).values(holderToken(holder!.id, token));
  const [grant] = await ctx.db.insert(grants).values({ customerId: holder!.id, packageId, kind: 'manual' }).returning();
  return { token, grantId: grant!.id };
}

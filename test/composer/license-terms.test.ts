import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from '../support/git-fixtures.js';
import { sellerRepositoryAroundTests } from '../support/seller-repository.js';
import { type ComposerRun, runComposer } from './composer-cli.js';
import { createGrant, createHolder, createPackage, type FixtureHolder, requestOnHost } from './repository-fixtures.js';

// The real, unmodified composer client against license terms (issue 31's Done when): a `^1.0` license on a package
// tagged v1.0.0, v1.1.0 and v2.0.0 installs v1.1.0 when the project asks for `*`; asking for ^2.0 fails with
// Composer's own resolution message plus the license's warning; v2.0.0's zip answers 403; a `stable` license never
// sees 2.1.0-beta1; and a project that does not use a package prints none of that package's warnings.

const HOST = 'terms.composer.localhost';

const repository = sellerRepositoryAroundTests('terms');
let workDir: string;
let holder: FixtureHolder;

function composer(cwd: string, args: string[]): Promise<ComposerRun> {
  return runComposer(cwd, args, { home: workDir, audit: false });
}

/** A project that knows no repository but the seller's, with the holder's token. */
async function createProject(name: string): Promise<string> {
  const dir = path.join(workDir, name);
  await mkdir(dir, { recursive: true });
  const manifest = { name: `holder/${name}`, type: 'project', repositories: { 'packagist.org': false }, require: {} };
  await writeFile(path.join(dir, 'composer.json'), `${JSON.stringify(manifest, null, 4)}\n`);
  const authority = `${HOST}:${repository.app.port}`;
  for (const args of [
    ['config', 'secure-http', 'false'],
    ['config', 'repositories.terms', 'composer', `http://${authority}`],
    ['config', `bearer.${authority}`, holder.token],
  ]) {
    const run = await composer(dir, args);
    expect(run.code, `${args.join(' ')}\n${run.output}`).toBe(0);
  }
  return dir;
}

async function lockedVersion(dir: string, name: string): Promise<string | undefined> {
  const lock = JSON.parse(await readFile(path.join(dir, 'composer.lock'), 'utf8')) as {
    packages: { name: string; version: string }[];
  };
  return lock.packages.find((entry) => entry.name === name)?.version;
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

beforeAll(async () => {
  workDir = await createTempDir('packgate-terms-');
  holder = await createHolder(repository.app, repository.seller, 'terms-holder@example.com');
  const ranged = await createPackage(repository.app, repository.seller, 'terms/ranged', [
    { version: 'v1.0.0', releasedAt: '2026-01-05T10:00:00Z' },
    { version: 'v1.1.0', releasedAt: '2026-01-20T10:00:00Z' },
    { version: 'v2.0.0', releasedAt: '2026-02-10T10:00:00Z' },
  ]);
  await createGrant(repository.app, holder, ranged, { versionConstraint: '^1.0' });
  const stable = await createPackage(repository.app, repository.seller, 'terms/stable', [
    { version: 'v2.0.0', releasedAt: '2026-02-10T10:00:00Z' },
    { version: '2.1.0-beta1', normalizedVersion: '2.1.0.0-beta1', releasedAt: '2026-02-20T10:00:00Z' },
  ]);
  await createGrant(repository.app, holder, stable, { minimumStability: 'stable' });
  const plain = await createPackage(repository.app, repository.seller, 'terms/plain', [
    { version: 'v1.0.0', releasedAt: '2026-01-05T10:00:00Z' },
  ]);
  await createGrant(repository.app, holder, plain);
});

afterAll(async () => {
  if (workDir) await removeTempDir(workDir);
});

describe('the composer client with license terms', () => {
  it('installs the newest version a ^1.0 license covers when the project asks for *, and says a newer one exists', async () => {
    const dir = await createProject('star');
    const run = await composer(dir, ['require', 'terms/ranged:*']);
    expect(run.code, run.output).toBe(0);
    expect(await lockedVersion(dir, 'terms/ranged')).toBe('v1.1.0');
    expect(run.output).toContain('terms/ranged v2.0.0 is available, but your license covers ^1.0');
    // Once per command, from the package's own p2 file.
    const update = await composer(dir, ['update']);
    expect(update.code, update.output).toBe(0);
    expect(occurrences(update.output, 'terms/ranged v2.0.0 is available')).toBe(1);
  });

  it('fails ^2.0 with Composer’s own resolution message and the license’s warning', async () => {
    const dir = await createProject('major-two');
    const run = await composer(dir, ['require', 'terms/ranged:^2.0']);
    expect(run.code).not.toBe(0);
    expect(run.output).toContain('Your requirements could not be resolved to an installable set of packages.');
    expect(run.output).toMatch(/terms\/ranged\[v1\.0\.0, v1\.1\.0\] but it does not match the constraint/);
    expect(run.output).toContain(
      `terms/ranged v2.0.0 is available, but your license covers ^1.0. Composer installs the newest version your license covers; to use v2.0.0, upgrade your license at http://${HOST}:${repository.app.port}/portal`,
    );
  });

  it('answers 403 to v2.0.0’s zip, naming the range', async () => {
    const response = await requestOnHost(repository.app, HOST, '/api/composer/download/terms/ranged/v2.0.0', {
      token: holder.token,
    });
    expect(response.status).toBe(403);
    expect(response.body.toString('utf8')).toContain(
      'Your license for terms/ranged covers ^1.0; v2.0.0 is outside it.',
    );
  });

  it('never shows a stable license 2.1.0-beta1', async () => {
    const dir = await createProject('stable');
    const shown = await composer(dir, ['show', '--all', 'terms/stable']);
    expect(shown.code, shown.output).toBe(0);
    expect(shown.output).toMatch(/^versions : v2\.0\.0\s*$/m);
    expect(shown.output).not.toContain('beta');
    const beta = await composer(dir, ['require', 'terms/stable:^2.1@beta']);
    expect(beta.code).not.toBe(0);
  });

  it('prints none of a package’s warnings in a project that does not use it', async () => {
    const dir = await createProject('plain-only');
    const run = await composer(dir, ['require', 'terms/plain:^1.0']);
    expect(run.code, run.output).toBe(0);
    expect(await lockedVersion(dir, 'terms/plain')).toBe('v1.0.0');
    expect(run.output).not.toContain('terms/ranged');
    expect(run.output).not.toMatch(/Warning from/);
  });
});

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHolderToken,
  revokeHolderToken,
  rotateHolderToken,
} from '../../src/server/features/credentials/holder-tokens.service.js';
import { systemPrincipal } from '../../src/server/http/principal.js';
import { HOUR_MS } from '../../src/server/lib/clock.js';
import { createTempDir, removeTempDir } from '../support/git-fixtures.js';
import { sellerRepositoryAroundTests } from '../support/seller-repository.js';
import { TestClock } from '../support/test-app.js';
import { runComposer } from './composer-cli.js';
import { createGrant, createHolder, createPackage, type FixtureHolder } from './repository-fixtures.js';

// The real composer with a holder's named tokens (issue 32's Done when): two named tokens of one holder install;
// revoking one refuses it at the next request while the other still installs; during a rotation's overlap both the
// old and the new token install, after it only the new one.

const HOST = 'named.composer.localhost';
const start = new Date('2026-04-01T08:00:00.000Z');

const clock = new TestClock(start);
const repository = sellerRepositoryAroundTests('named', { clock });
let workDir: string;
let holder: FixtureHolder;
let runs = 0;

/** A fresh project with its own cache that requires named/widget with this token; answers whether it installed. */
async function installsWith(token: string): Promise<{ ok: boolean; output: string }> {
  const dir = path.join(workDir, `project-${++runs}`);
  await mkdir(dir, { recursive: true });
  const manifest = { name: 'holder/app', type: 'project', repositories: { 'packagist.org': false }, require: {} };
  await writeFile(path.join(dir, 'composer.json'), `${JSON.stringify(manifest, null, 4)}\n`);
  const authority = `${HOST}:${repository.app.port}`;
  const options = { home: workDir, cacheDir: path.join(dir, 'cache'), audit: false };
  for (const args of [
    ['config', 'secure-http', 'false'],
    ['config', 'repositories.named', 'composer', `http://${authority}`],
    ['config', `bearer.${authority}`, token],
  ]) {
    expect((await runComposer(dir, args, options)).code).toBe(0);
  }
  const run = await runComposer(dir, ['require', 'named/widget:^1.0'], options);
  if (run.code !== 0) return { ok: false, output: run.output };
  const installed = await readFile(path.join(dir, 'vendor', 'named', 'widget', 'VERSION.txt'), 'utf8');
  return { ok: installed.startsWith('named/widget v1.0.0'), output: run.output };
}

const create = (name: string, kind: 'developer' | 'ci' | 'deploy' | 'bot') =>
  createHolderToken(
    repository.app.ctx,
    systemPrincipal(repository.seller.id),
    holder.id,
    { name, kind },
    {
      seats: { limit: null },
      createdBy: 'holder',
    },
  );

beforeAll(async () => {
  workDir = await createTempDir('packgate-named-tokens-');
  holder = await createHolder(repository.app, repository.seller, 'named-holder@example.com');
  const widget = await createPackage(repository.app, repository.seller, 'named/widget', [
    { version: 'v1.0.0', releasedAt: '2026-01-05T10:00:00Z' },
  ]);
  await createGrant(repository.app, holder, widget);
});

afterAll(async () => {
  if (workDir) await removeTempDir(workDir);
});

describe('named tokens with the real composer', () => {
  it('installs with two named tokens; a revoked one is refused at its next request, the other still installs', async () => {
    const laptop = await create("Ana's laptop", 'developer');
    const ci = await create('GitHub Actions', 'ci');
    expect((await installsWith(laptop.token)).ok).toBe(true);
    expect((await installsWith(ci.token)).ok).toBe(true);

    await revokeHolderToken(repository.app.ctx, systemPrincipal(repository.seller.id), holder.id, laptop.id);
    const refused = await installsWith(laptop.token);
    expect(refused.ok).toBe(false);
    expect(refused.output).toMatch(/401|[Ii]nvalid credentials|could not be authenticated/);
    expect(refused.output).not.toContain(laptop.token);
    expect((await installsWith(ci.token)).ok).toBe(true);
  });

  it('installs with both tokens during a rotation’s overlap and with only the new one after it', async () => {
    const old = await create('Production deploy', 'deploy');
    const rotated = await rotateHolderToken(
      repository.app.ctx,
      systemPrincipal(repository.seller.id),
      holder.id,
      old.id,
      2,
    );
    expect((await installsWith(old.token)).ok).toBe(true);
    expect((await installsWith(rotated.token)).ok).toBe(true);

    clock.advance(2 * HOUR_MS + 1000);
    expect((await installsWith(old.token)).ok).toBe(false);
    expect((await installsWith(rotated.token)).ok).toBe(true);
  });
});

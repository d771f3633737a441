import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createPackageRepository,
  createTempDir,
  git,
  removeTempDir,
  serveGitOverHttp,
} from '../../../../test/support/git-fixtures.js';
import { GitError } from './git-command.js';
import { createMirrorSyncer, mirrorPathFor, syncMirror } from './git-mirror.js';
import { listReferences } from './git-repository.js';

const execFileAsync = promisify(execFile);

let workspace: string;

beforeEach(async () => {
  workspace = await createTempDir('packgate-mirror-');
});

afterEach(async () => {
  await removeTempDir(workspace);
});

async function refNames(mirrorDir: string): Promise<string[]> {
  return (await listReferences(mirrorDir)).map((reference) => reference.ref).sort();
}

describe('syncMirror', () => {
  it('creates a bare mirror with the branches and tags of a local repository', async () => {
    const source = await createPackageRepository(path.join(workspace, 'widget'), {
      name: 'acme/widget',
      tags: ['v1.0.0', 'v1.1.0'],
      branches: ['main', 'develop'],
    });
    const mirrorDir = path.join(workspace, 'mirrors', '1.git');

    expect(await syncMirror({ source: source.dir, mirrorDir })).toEqual({ created: true });

    expect((await git(mirrorDir, ['rev-parse', '--is-bare-repository'])).trim()).toBe('true');
    expect(await refNames(mirrorDir)).toEqual([
      'refs/heads/develop',
      'refs/heads/main',
      'refs/tags/v1.0.0',
      'refs/tags/v1.1.0',
    ]);
  });

  it('picks up a new tag, a moved tag and a deleted branch on the next sync', async () => {
    const source = await createPackageRepository(path.join(workspace, 'widget'), {
      name: 'acme/widget',
      tags: ['v1.0.0'],
      branches: ['main', 'old-feature'],
    });
    const mirrorDir = path.join(workspace, 'mirror.git');
    await syncMirror({ source: source.dir, mirrorDir });

    const release = await source.addTag('v1.1.0');
    await git(source.dir, ['branch', '-D', 'old-feature']);
    await git(source.dir, ['tag', '--force', 'v1.0.0', release.commit]);

    expect(await syncMirror({ source: source.dir, mirrorDir })).toEqual({ created: false });
    const references = await listReferences(mirrorDir);
    expect(references.map((reference) => reference.ref).sort()).toEqual([
      'refs/heads/main',
      'refs/tags/v1.0.0',
      'refs/tags/v1.1.0',
    ]);
    expect(references.find((reference) => reference.name === 'v1.1.0')?.commit).toBe(release.commit);
    expect(references.find((reference) => reference.name === 'v1.0.0')?.commit).toBe(release.commit);
  });

  it('serialises concurrent syncs of one mirror so that all of them succeed', async () => {
    const source = await createPackageRepository(path.join(workspace, 'widget'), {
      name: 'acme/widget',
      tags: ['v1.0.0', 'v1.1.0'],
    });
    const mirrorDir = path.join(workspace, 'mirror.git');

    const mirrors = createMirrorSyncer();

    const results = await Promise.all(Array.from({ length: 5 }, () => mirrors.sync({ source: source.dir, mirrorDir })));

    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(await refNames(mirrorDir)).toEqual(['refs/heads/main', 'refs/tags/v1.0.0', 'refs/tags/v1.1.0']);
    await git(mirrorDir, ['fsck', '--no-progress']);
  });

  // git refuses repositories of another owner unless told they are safe; only root can set up the case.
  it.skipIf(process.getuid?.() !== 0)('mirrors a local repository that another user owns', async () => {
    const source = await createPackageRepository(path.join(workspace, 'foreign'), {
      name: 'acme/foreign',
      tags: ['v1.0.0'],
    });
    await execFileAsync('chown', ['-R', '65534:65534', source.dir]);
    const mirrorDir = path.join(workspace, 'mirror.git');

    await syncMirror({ source: source.dir, mirrorDir });

    expect(await refNames(mirrorDir)).toEqual(['refs/heads/main', 'refs/tags/v1.0.0']);
  });

  it('leaves no mirror behind when the first sync fails', async () => {
    const mirrorDir = path.join(workspace, 'mirror.git');
    const failure = await syncMirror({ source: path.join(workspace, 'missing'), mirrorDir }).catch((error) => error);

    expect(failure).toBeInstanceOf(GitError);
    expect(failure.code).toBe('NOT_FOUND');
    await expect(readFile(path.join(mirrorDir, 'HEAD'))).rejects.toThrow();
  });

  it('refuses sources that are neither absolute paths nor http(s) URLs, or that carry credentials', async () => {
    const mirrorDir = path.join(workspace, 'mirror.git');
    for (const source of [
      'relative/path',
      'ext::sh -c touch% /tmp/pwned',
      'ssh://git@example.com/acme/widget.git',
      'https://user:secret@example.com/acme/widget.git',
    ]) {
      await expect(syncMirror({ source, mirrorDir })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
    await expect(
      syncMirror({ source: 'http://example.com/acme/widget.git', mirrorDir, auth: { token: 'secret' } }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('authenticates an http source with the token without writing it to the mirror', async () => {
    const root = path.join(workspace, 'served');
    await createPackageRepository(path.join(root, 'widget.git'), { name: 'acme/widget', tags: ['v1.0.0'], bare: true });
    const token = 'ghp_fixtureToken1234567890';
    const server = await serveGitOverHttp(root, { username: 'x-access-token', password: token });
    try {
      const mirrorDir = path.join(workspace, 'mirror.git');
      const source = `${server.url}/widget.git`;

      const refused = await syncMirror({ source, mirrorDir }).catch((error) => error);
      expect(refused).toBeInstanceOf(GitError);
      expect(refused.code).toBe('AUTH_FAILED');

      const wrong = await syncMirror({ source, mirrorDir, auth: { token: 'ghp_wrong' } }).catch((error) => error);
      expect(wrong.code).toBe('AUTH_FAILED');
      expect(wrong.message).not.toContain('ghp_wrong');

      await syncMirror({ source, mirrorDir, auth: { token } });
      expect(await refNames(mirrorDir)).toEqual(['refs/heads/main', 'refs/tags/v1.0.0']);
      expect(server.authorizations).toContain(`Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`);
      const config = await readFile(path.join(mirrorDir, 'config'), 'utf8');
      expect(config).not.toContain(token);
      expect(config).not.toContain('extraHeader');
      expect(await git(mirrorDir, ['grep', '--no-index', '-r', '-l', token, '.']).catch(() => '')).toBe('');
    } finally {
      await server.close();
    }
  });
});

describe('mirrorPathFor', () => {
  it('places a package mirror under DATA_DIR/mirrors', () => {
    expect(mirrorPathFor('/srv/data', '42')).toBe('/srv/data/mirrors/42.git');
    expect(mirrorPathFor('/srv/data', '0b5e4a7c-2f4d-4c3a-9a6b-1f2e3d4c5b6a')).toBe(
      '/srv/data/mirrors/0b5e4a7c-2f4d-4c3a-9a6b-1f2e3d4c5b6a.git',
    );
  });

  it('refuses package ids that are not plain folder names', () => {
    for (const id of ['', '../etc', 'a/b', '.hidden', 'a b']) {
      expect(() => mirrorPathFor('/srv/data', id)).toThrow(GitError);
    }
  });
});

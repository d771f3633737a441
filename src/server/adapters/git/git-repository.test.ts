import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPackageRepository,
  createTempDir,
  FIXTURE_EPOCH_SECONDS,
  git,
  type PackageRepository,
  removeTempDir,
} from '../../../../test/support/git-fixtures.js';
import { GitError } from './git-command.js';
import { syncMirror } from './git-mirror.js';
import { archiveZip, listReferences, readFileAt, readFilesAt, streamZipArchive } from './git-repository.js';

const execFileAsync = promisify(execFile);

let workspace: string;
let source: PackageRepository;
let mirrorDir: string;

beforeAll(async () => {
  workspace = await createTempDir('packgate-git-read-');
  source = await createPackageRepository(path.join(workspace, 'widget'), {
    name: 'acme/widget',
    description: 'A widget',
    tags: [
      'v1.0.0',
      { name: 'v1.1.0', annotated: true },
      { name: 'v2.0.0-beta1', files: { 'docs/guide.md': 'Guide\n' } },
    ],
    branches: ['main', 'feature/next'],
    files: {
      '.gitattributes': '/tests export-ignore\n/.gitattributes export-ignore\n',
      'tests/WidgetTest.php': '<?php // not shipped\n',
    },
  });
  mirrorDir = path.join(workspace, 'mirror.git');
  await syncMirror({ source: source.dir, mirrorDir });
});

afterAll(async () => {
  await removeTempDir(workspace);
});

const at = (days: number) => new Date((FIXTURE_EPOCH_SECONDS + days * 86_400) * 1000);

describe('listReferences', () => {
  it('lists branches and lightweight and annotated tags with their commit and time', async () => {
    const references = await listReferences(mirrorDir);
    const byName = Object.fromEntries(references.map((reference) => [reference.name, reference]));

    expect(references.map((reference) => `${reference.kind} ${reference.name}`).sort()).toEqual([
      'branch feature/next',
      'branch main',
      'tag v1.0.0',
      'tag v1.1.0',
      'tag v2.0.0-beta1',
    ]);
    expect(byName['v1.0.0']).toEqual({
      kind: 'tag',
      name: 'v1.0.0',
      ref: 'refs/tags/v1.0.0',
      commit: source.revisions['v1.0.0']!.commit,
      committedAt: at(1),
      authoredAt: at(1),
    });
    // The annotated tag is peeled to its commit, not the tag object.
    expect(byName['v1.1.0']?.commit).toBe(source.revisions['v1.1.0']!.commit);
    expect(byName['v1.1.0']?.committedAt).toEqual(at(2));
    // Only an annotated tag has a date of its own (the tagger's); a lightweight tag and a branch have none.
    expect(byName['v1.1.0']?.taggedAt).toEqual(at(2));
    expect(byName['v1.0.0']).not.toHaveProperty('taggedAt');
    expect(byName.main).not.toHaveProperty('taggedAt');
    expect(byName['feature/next']).toMatchObject({
      kind: 'branch',
      ref: 'refs/heads/feature/next',
      commit: source.revisions['feature/next']!.commit,
    });
  });

  it('peels a tag of an annotated tag to its commit', async () => {
    const dir = path.join(workspace, 'nested');
    const repository = await createPackageRepository(dir, {
      name: 'acme/nested',
      tags: [{ name: 'v1.0.0', annotated: true }],
    });
    await git(dir, ['tag', '--annotate', '-m', 'again', 'v1.0.0-again', 'v1.0.0']);

    const references = await listReferences(dir);

    expect(references.find((reference) => reference.name === 'v1.0.0-again')).toMatchObject({
      kind: 'tag',
      commit: repository.revisions['v1.0.0']!.commit,
      committedAt: at(1),
    });
  });

  it("reads an annotated tag's tagger date apart from its commit's dates, the outer tag's for a tag of a tag", async () => {
    const dir = path.join(workspace, 'tagged-later');
    const repository = await createPackageRepository(dir, { name: 'acme/tagged', tags: ['v1.0.0'] });
    const commit = repository.revisions['v1.0.0']!.commit;
    // git takes a tag's tagger date from GIT_COMMITTER_DATE: a release tagged long after its commit was made.
    await git(dir, ['tag', '--annotate', '-m', 'Release', 'v1.0.1', commit], {
      GIT_COMMITTER_DATE: '2026-03-15T09:30:00Z',
    });
    await git(dir, ['tag', '--annotate', '-m', 'Again', 'v1.0.2', 'v1.0.1'], {
      GIT_COMMITTER_DATE: '2026-04-01T00:00:00Z',
    });

    const references = await listReferences(dir);
    const byName = Object.fromEntries(references.map((reference) => [reference.name, reference]));

    expect(byName['v1.0.1']).toMatchObject({
      commit,
      authoredAt: at(1),
      committedAt: at(1),
      taggedAt: new Date('2026-03-15T09:30:00Z'),
    });
    expect(byName['v1.0.2']).toMatchObject({ commit, authoredAt: at(1), taggedAt: new Date('2026-04-01T00:00:00Z') });
  });

  it('answers NOT_FOUND for a folder that is not a repository', async () => {
    await expect(listReferences(path.join(workspace, 'nowhere'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('readFileAt and readFilesAt', () => {
  it('reads composer.json of every reference in one batch, undefined where it is missing', async () => {
    const commits = ['v1.0.0', 'v1.1.0', 'v2.0.0-beta1', 'main'].map((name) => source.revisions[name]!.commit);
    const files = await readFilesAt(mirrorDir, [...commits, 'refs/tags/v1.0.0', 'no-such-ref'], 'composer.json');

    for (const commit of commits) {
      expect(JSON.parse(files.get(commit)!)).toMatchObject({ name: 'acme/widget', description: 'A widget' });
    }
    expect(files.get('refs/tags/v1.0.0')).toBe(files.get(commits[0]!));
    expect(files.get('no-such-ref')).toBeUndefined();
  });

  it('reads exact contents per tag, and undefined for a missing file or a directory', async () => {
    expect(await readFileAt(mirrorDir, source.revisions['v1.1.0']!.commit, 'VERSION')).toBe('v1.1.0\n');
    expect(await readFileAt(mirrorDir, source.revisions['v1.0.0']!.commit, 'docs/guide.md')).toBeUndefined();
    expect(await readFileAt(mirrorDir, source.revisions['v2.0.0-beta1']!.commit, 'docs/guide.md')).toBe('Guide\n');
    expect(await readFileAt(mirrorDir, 'main', 'src')).toBeUndefined();
  });

  it('refuses revisions that could be read as options or paths', async () => {
    for (const revision of ['--output=/tmp/x', 'main:composer.json', 'a b', '']) {
      await expect(readFileAt(mirrorDir, revision, 'composer.json')).rejects.toBeInstanceOf(GitError);
    }
  });
});

async function zipEntries(zip: Buffer): Promise<string[]> {
  const file = path.join(workspace, `entries-${Math.random().toString(36).slice(2)}.zip`);
  await writeFile(file, zip);
  const { stdout } = await execFileAsync('unzip', ['-Z1', file]);
  return stdout
    .split('\n')
    .filter((line) => line !== '' && !line.endsWith('/'))
    .sort();
}

describe('archiveZip', () => {
  it("holds exactly the tag's files, leaving out export-ignore paths", async () => {
    const tag = source.revisions['v2.0.0-beta1']!;
    const { zip } = await archiveZip(mirrorDir, tag.commit);

    const shipped = Object.keys(tag.files)
      .filter((file) => !file.startsWith('tests/') && file !== '.gitattributes')
      .sort();
    expect(await zipEntries(zip)).toEqual(shipped);
    expect(shipped).toEqual(['README.md', 'VERSION', 'composer.json', 'docs/guide.md', 'src/Version.php']);
  });

  it('puts entries under the prefix when one is given', async () => {
    const { zip } = await archiveZip(mirrorDir, source.revisions['v1.0.0']!.commit, { prefix: 'acme-widget-1/' });

    expect(await zipEntries(zip)).toEqual([
      'acme-widget-1/README.md',
      'acme-widget-1/VERSION',
      'acme-widget-1/composer.json',
      'acme-widget-1/src/Version.php',
    ]);
  });

  it('reports the SHA-1 sha1sum computes, and the same bytes for the same commit', async () => {
    const commit = source.revisions['v1.1.0']!.commit;
    const first = await archiveZip(mirrorDir, commit);
    const file = path.join(workspace, 'v1.1.0.zip');
    await writeFile(file, first.zip);
    const { stdout } = await execFileAsync('sha1sum', [file]);

    expect(first.sha1).toBe(stdout.split(' ')[0]);
    expect(first.size).toBe(first.zip.length);
    expect((await archiveZip(mirrorDir, commit)).sha1).toBe(first.sha1);
  });

  it('fails the stream and the hash for an unknown commit rather than yielding an empty zip', async () => {
    const archive = streamZipArchive(mirrorDir, 'ffffffffffffffffffffffffffffffffffffffff');
    const consumed = (async () => {
      for await (const _chunk of archive.stream) {
        // drain
      }
    })();

    await expect(consumed).rejects.toBeInstanceOf(GitError);
    await expect(archive.sha1).rejects.toBeInstanceOf(GitError);
  });

  it('refuses prefixes that climb out of the archive root', async () => {
    for (const prefix of ['../', 'a/../', '/abs/', 'no-slash']) {
      await expect(archiveZip(mirrorDir, 'main', { prefix })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
  });
});

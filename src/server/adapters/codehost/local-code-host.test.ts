import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPackageRepository,
  createTempDir,
  git,
  type PackageRepository,
  removeTempDir,
} from '../../../../test/support/git-fixtures.js';
import { syncMirror } from '../git/git-mirror.js';
import { listReferences } from '../git/git-repository.js';
import { CodeHostError } from './code-host.js';
import { LocalCodeHost } from './local-code-host.js';

const seller = { id: '7d1c0c3e-0000-4000-8000-000000000001' };

let workspace: string;
let reposDir: string;
let host: LocalCodeHost;
let widget: PackageRepository;

beforeAll(async () => {
  workspace = await createTempDir('packgate-local-host-');
  reposDir = path.join(workspace, 'repos');
  widget = await createPackageRepository(path.join(reposDir, 'widget.git'), {
    name: 'acme/widget',
    description: 'From composer.json',
    tags: ['v1.0.0'],
    bare: true,
    gitDescription: 'Widgets for every shop',
  });
  await createPackageRepository(path.join(reposDir, 'gadget'), {
    name: 'acme/gadget',
    description: 'Gadget library',
    branches: ['develop'],
  });
  await createPackageRepository(path.join(reposDir, 'acme', 'tool.git'), {
    name: 'acme/tool',
    description: 'Tooling',
    bare: true,
  });
  await createPackageRepository(path.join(reposDir, 'acme', 'notes'), {
    name: 'acme/notes',
    withoutComposerJson: true,
  });
  await git(workspace, ['init', '--quiet', '--bare', path.join(reposDir, 'empty.git')]);
  // Not repositories, or out of reach: ignored.
  await mkdir(path.join(reposDir, 'papers'), { recursive: true });
  await writeFile(path.join(reposDir, 'papers', 'readme.txt'), 'not a repository');
  await createPackageRepository(path.join(reposDir, 'acme', 'deeper', 'nested.git'), { name: 'a/b', bare: true });
  await createPackageRepository(path.join(reposDir, '.hidden.git'), { name: 'a/c', bare: true });
  host = new LocalCodeHost(reposDir);
});

afterAll(async () => {
  await removeTempDir(workspace);
});

describe('LocalCodeHost', () => {
  it('lists bare and working-tree repositories, at the top and in owner folders', async () => {
    const repositories = await host.listRepositories(seller);

    expect(repositories).toEqual([
      {
        id: 'acme/notes',
        name: 'notes',
        fullName: 'acme/notes',
        description: null,
        private: true,
        defaultBranch: 'main',
        hasComposerJson: false,
        composerName: null,
      },
      {
        id: 'acme/tool.git',
        name: 'tool',
        fullName: 'acme/tool',
        description: 'Tooling',
        private: true,
        defaultBranch: 'main',
        hasComposerJson: true,
        composerName: 'acme/tool',
      },
      {
        id: 'empty.git',
        name: 'empty',
        fullName: 'local/empty',
        description: null,
        private: true,
        defaultBranch: expect.any(String),
        hasComposerJson: false,
        composerName: null,
      },
      {
        id: 'gadget',
        name: 'gadget',
        fullName: 'local/gadget',
        description: 'Gadget library',
        private: true,
        defaultBranch: 'develop',
        hasComposerJson: true,
        composerName: 'acme/gadget',
      },
      {
        id: 'widget.git',
        name: 'widget',
        fullName: 'local/widget',
        description: 'Widgets for every shop',
        private: true,
        defaultBranch: 'main',
        hasComposerJson: true,
        composerName: 'acme/widget',
      },
    ]);
  });

  it('finds one repository by id, as listed', async () => {
    const listed = await host.listRepositories(seller);
    for (const repository of listed) {
      expect(await host.getRepository(seller, repository.id)).toEqual(repository);
    }
  });

  it('answers NOT_FOUND for ids outside the folder, hidden, too deep or naming an owner folder', async () => {
    for (const id of [
      'missing.git',
      '../repos/widget.git',
      'acme/../widget.git',
      '.hidden.git',
      'acme/deeper/nested.git',
      'acme',
      'papers',
      '',
      '/etc',
      'widget.git/objects',
    ]) {
      const error = await host.getRepository(seller, id).catch((failure: unknown) => failure);
      expect(error, id).toBeInstanceOf(CodeHostError);
      expect((error as CodeHostError).code).toBe('NOT_FOUND');
    }
  });

  it('hands out a local path that a mirror can be cloned from', async () => {
    const repository = await host.getRepository(seller, 'widget.git');
    const source = await host.cloneSource(seller, repository);
    expect(source).toEqual({ source: path.join(reposDir, 'widget.git') });

    const mirrorDir = path.join(workspace, 'mirrors', 'widget.git');
    await syncMirror({ ...source, mirrorDir });
    const tags = (await listReferences(mirrorDir)).filter((reference) => reference.kind === 'tag');
    expect(tags.map((tag) => [tag.name, tag.commit])).toEqual([['v1.0.0', widget.revisions['v1.0.0']!.commit]]);
  });

  it('lists nothing when the folder does not exist', async () => {
    expect(await new LocalCodeHost(path.join(workspace, 'nowhere')).listRepositories(seller)).toEqual([]);
  });
});

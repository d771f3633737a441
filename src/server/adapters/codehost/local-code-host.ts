import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { GitError, runGit } from '../git/git-command.js';
import type { CloneSource } from '../git/git-mirror.js';
import { readFileAt } from '../git/git-repository.js';
import {
  type CodeHost,
  CodeHostError,
  type CodeHostRepository,
  type CodeHostUser,
  composerNameOf,
  describeListed,
} from './code-host.js';

// The embedded default's code host: git repositories in one folder (GIT_REPOS_DIR), bare (`widget.git`)
// or working trees (`widget/.git`), at the top (`local/widget`) or one level down in owner folders
// (`acme/widget`). There are no accounts: every seller on this host sees the same repositories.

const GIT_DEFAULT_DESCRIPTION = /^Unnamed repository; edit this file 'description' to name the repository\.?$/;

type RepositoryKind = 'bare' | 'worktree';
type FoundRepository = { id: string; dir: string; kind: RepositoryKind; owner?: string };

export class LocalCodeHost implements CodeHost {
  readonly kind = 'local' as const;
  readonly root: string;

  constructor(reposDir: string) {
    this.root = path.resolve(reposDir);
  }

  async listRepositories(_user: CodeHostUser): Promise<CodeHostRepository[]> {
    const found = await this.findRepositories();
    return describeListed(found, (repository) => this.inspect(repository));
  }

  async getRepository(_user: CodeHostUser, id: string): Promise<CodeHostRepository> {
    return this.inspect(await this.resolve(id));
  }

  async cloneSource(_user: CodeHostUser, repository: CodeHostRepository): Promise<CloneSource> {
    const { dir } = await this.resolve(repository.id);
    return { source: dir };
  }

  async readDefaultBranchFile(
    _user: CodeHostUser,
    repository: CodeHostRepository,
    filePath: string,
  ): Promise<string | undefined> {
    const { dir } = await this.resolve(repository.id);
    return readFileAt(dir, 'HEAD', filePath, { safeDirectories: [dir, path.join(dir, '.git')] }).catch(
      (error: unknown) => {
        // An empty repository has no HEAD commit: it has no files either.
        if (error instanceof GitError && error.code !== 'TIMEOUT') return undefined;
        throw error;
      },
    );
  }

  /** The repository an id names, checked the way listing finds them, so that no id reaches outside the folder. */
  private async resolve(id: string): Promise<FoundRepository> {
    const segments = id.split('/');
    const isSafe = segments.every((segment) => segment !== '' && !segment.startsWith('.') && !/[\\\0]/.test(segment));
    if (!isSafe || segments.length > 2) throw notFound(id);
    const dir = path.join(this.root, ...segments);
    const kind = await repositoryKind(dir);
    if (!kind) throw notFound(id);
    if (segments.length === 2) {
      // An owner folder is only an owner folder when it is not a repository itself.
      if (await repositoryKind(path.join(this.root, segments[0]!))) throw notFound(id);
      return { id, dir, kind, owner: segments[0] };
    }
    return { id, dir, kind };
  }

  private async findRepositories(): Promise<FoundRepository[]> {
    const found: FoundRepository[] = [];
    for (const name of await listFolders(this.root)) {
      const dir = path.join(this.root, name);
      const kind = await repositoryKind(dir);
      if (kind) {
        found.push({ id: name, dir, kind });
        continue;
      }
      for (const child of await listFolders(dir)) {
        const childDir = path.join(dir, child);
        const childKind = await repositoryKind(childDir);
        if (childKind) found.push({ id: `${name}/${child}`, dir: childDir, kind: childKind, owner: name });
      }
    }
    return found;
  }

  private async inspect(repository: FoundRepository): Promise<CodeHostRepository> {
    const { dir, kind } = repository;
    const name = path.basename(dir).replace(/\.git$/, '') || path.basename(dir);
    // The operator put these repositories here: read them even when another user owns them.
    const safeDirectories = [dir, path.join(dir, '.git')];
    const [defaultBranch, composerJson, gitDescription] = await Promise.all([
      runGit(['-C', dir, 'symbolic-ref', '--quiet', '--short', 'HEAD'], { safeDirectories }).then(
        (output) => output.toString('utf8').trim() || null,
        () => null,
      ),
      readFileAt(dir, 'HEAD', 'composer.json', { safeDirectories }).catch((error: unknown) => {
        if (error instanceof GitError && error.code !== 'TIMEOUT') return undefined;
        throw error;
      }),
      readFile(path.join(kind === 'bare' ? dir : path.join(dir, '.git'), 'description'), 'utf8').catch(() => ''),
    ]);
    return {
      id: repository.id,
      name,
      fullName: `${repository.owner ?? 'local'}/${name}`,
      description: describe(gitDescription, composerJson),
      private: true,
      defaultBranch,
      hasComposerJson: composerJson !== undefined,
      composerName: composerNameOf(composerJson),
    };
  }
}

function notFound(id: string): CodeHostError {
  return new CodeHostError('NOT_FOUND', `Repository ${JSON.stringify(id.slice(0, 200))} was not found`);
}

/** The bare repository's own description unless it is git's placeholder, else composer.json's. */
function describe(gitDescription: string, composerJson: string | undefined): string | null {
  const text = gitDescription.trim();
  if (text !== '' && !GIT_DEFAULT_DESCRIPTION.test(text)) return text;
  if (composerJson === undefined) return null;
  try {
    const manifest = JSON.parse(composerJson) as { description?: unknown };
    return typeof manifest.description === 'string' && manifest.description.trim() !== ''
      ? manifest.description.trim()
      : null;
  } catch {
    return null;
  }
}

async function listFolders(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: { code?: string }) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return [];
    throw error;
  });
  const folders: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    // Symbolic links to repositories are welcome: stat follows them.
    if (entry.isDirectory() || (entry.isSymbolicLink() && (await isFolder(path.join(dir, entry.name))))) {
      folders.push(entry.name);
    }
  }
  return folders.sort();
}

async function isFolder(target: string): Promise<boolean> {
  return stat(target).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
}

async function exists(target: string): Promise<boolean> {
  return stat(target).then(
    () => true,
    () => false,
  );
}

async function repositoryKind(dir: string): Promise<RepositoryKind | undefined> {
  if (await exists(path.join(dir, '.git'))) return 'worktree';
  const [head, objects, refs] = await Promise.all([
    exists(path.join(dir, 'HEAD')),
    isFolder(path.join(dir, 'objects')),
    isFolder(path.join(dir, 'refs')),
  ]);
  return head && objects && refs ? 'bare' : undefined;
}

import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// Git repositories shaped like Composer packages, for tests: every tag and branch tip has its own file
// contents (tests can compare exact trees) and fixed dates (release times are deterministic).

const execFileAsync = promisify(execFile);

/** 2024-01-01T00:00:00Z; the n-th commit of a fixture is dated n days later. */
export const FIXTURE_EPOCH_SECONDS = 1_704_067_200;
const DAY_SECONDS = 86_400;

/** Runs git with no user or system configuration and a fixed identity. */
export async function git(cwd: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await execFileAsync(
    'git',
    ['-c', 'init.defaultBranch=main', '-c', 'commit.gpgSign=false', '-c', 'tag.gpgSign=false', ...args],
    {
      cwd,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        LC_ALL: 'C',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_AUTHOR_NAME: 'Fixture Author',
        GIT_AUTHOR_EMAIL: 'author@fixture.test',
        GIT_COMMITTER_NAME: 'Fixture Committer',
        GIT_COMMITTER_EMAIL: 'committer@fixture.test',
        ...env,
      },
    },
  );
  return stdout;
}

export type FixtureFiles = Record<string, string>;

export type FixtureTag = string | { name: string; annotated?: boolean; files?: FixtureFiles; composerVersion?: string };

export type PackageRepositoryOptions = {
  /** Composer package name written to composer.json, e.g. `acme/widget`. */
  name: string;
  description?: string;
  /** Tags in release order; each gets its own commit. Annotated when asked, lightweight otherwise. */
  tags?: FixtureTag[];
  /** Branches created after the tags, each with one commit of its own; the first becomes HEAD. Default `main`. */
  branches?: string[];
  /** Files in every commit (composer.json is written unless `withoutComposerJson`). */
  files?: FixtureFiles;
  withoutComposerJson?: boolean;
  /** A bare repository (`git clone --bare` of the work tree) instead of a working tree. */
  bare?: boolean;
  /** Written to the bare repository's `description` file. */
  gitDescription?: string;
};

export type FixtureRevision = {
  commit: string;
  /** Committer and author date of the commit. */
  time: Date;
  /** Every file of the commit's tree with its content. */
  files: FixtureFiles;
};

export type PackageRepository = {
  dir: string;
  /** By tag or branch name. */
  revisions: Record<string, FixtureRevision>;
  /** Adds a tag on a new commit of the default branch (as a seller pushing a release would). */
  addTag(tag: FixtureTag): Promise<FixtureRevision>;
};

function composerJson(options: PackageRepositoryOptions, version?: string): string {
  const manifest: Record<string, unknown> = { name: options.name };
  if (options.description) manifest.description = options.description;
  manifest.type = 'library';
  manifest.license = 'proprietary';
  if (version) manifest.version = version;
  manifest.autoload = { 'psr-4': { 'Acme\\Widget\\': 'src/' } };
  return `${JSON.stringify(manifest, null, 4)}\n`;
}

/**
 * Creates a package repository at `dir`: a first commit, one commit per tag (VERSION and src/Version.php
 * name the tag), then one commit per branch on top of the last tag. Commit n is dated FIXTURE_EPOCH + n days.
 */
export async function createPackageRepository(
  dir: string,
  options: PackageRepositoryOptions,
): Promise<PackageRepository> {
  const branches = options.branches ?? ['main'];
  const defaultBranch = branches[0] ?? 'main';
  let workDir = options.bare ? await mkdtemp(path.join(tmpdir(), 'packgate-fixture-work-')) : dir;
  await mkdir(workDir, { recursive: true });
  await git(workDir, ['init', '--quiet', `--initial-branch=${defaultBranch}`]);

  let commitCount = 0;
  let tree: FixtureFiles = {};
  const revisions: Record<string, FixtureRevision> = {};

  async function commit(files: FixtureFiles, message: string): Promise<FixtureRevision> {
    for (const [file, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(workDir, file)), { recursive: true });
      await writeFile(path.join(workDir, file), content);
    }
    tree = { ...tree, ...files };
    const seconds = FIXTURE_EPOCH_SECONDS + commitCount * DAY_SECONDS;
    commitCount++;
    const date = `@${seconds} +0000`;
    await git(workDir, ['add', '--all']);
    await git(workDir, ['commit', '--quiet', '--allow-empty', '-m', message], {
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    });
    const sha = (await git(workDir, ['rev-parse', 'HEAD'])).trim();
    return { commit: sha, time: new Date(seconds * 1000), files: { ...tree } };
  }

  async function commitAndTag(tag: FixtureTag): Promise<FixtureRevision> {
    const spec = typeof tag === 'string' ? { name: tag } : tag;
    const files: FixtureFiles = {
      VERSION: `${spec.name}\n`,
      'src/Version.php': `<?php\n\nreturn '${spec.name}';\n`,
      ...(spec.composerVersion !== undefined && !options.withoutComposerJson
        ? { 'composer.json': composerJson(options, spec.composerVersion) }
        : {}),
      ...spec.files,
    };
    const revision = await commit(files, `Release ${spec.name}`);
    const taggerDate = `@${revision.time.getTime() / 1000} +0000`;
    await git(
      workDir,
      spec.annotated ? ['tag', '--annotate', '-m', `Release ${spec.name}`, spec.name] : ['tag', spec.name],
      { GIT_COMMITTER_DATE: taggerDate },
    );
    revisions[spec.name] = revision;
    return revision;
  }

  await commit(
    {
      ...(options.withoutComposerJson ? {} : { 'composer.json': composerJson(options) }),
      'README.md': `# ${options.name}\n`,
      ...options.files,
    },
    'Initial commit',
  );
  for (const tag of options.tags ?? []) await commitAndTag(tag);

  const releaseTip = (await git(workDir, ['rev-parse', 'HEAD'])).trim();
  const releaseTree = { ...tree };
  for (const branch of branches) {
    if (branch !== defaultBranch) await git(workDir, ['checkout', '--quiet', '-b', branch, releaseTip]);
    tree = { ...releaseTree };
    revisions[branch] = await commit({ 'BRANCH.md': `Work in progress on ${branch}\n` }, `Work on ${branch}`);
  }
  if (branches.length > 1) await git(workDir, ['checkout', '--quiet', defaultBranch]);
  tree = { ...revisions[defaultBranch]!.files };

  if (options.bare) {
    await rm(dir, { recursive: true, force: true });
    await mkdir(path.dirname(dir), { recursive: true });
    await git(path.dirname(dir), ['clone', '--quiet', '--bare', workDir, dir]);
    await rm(workDir, { recursive: true, force: true });
    if (options.gitDescription !== undefined)
      await writeFile(path.join(dir, 'description'), `${options.gitDescription}\n`);
  }

  /** Later releases go on top of the default branch, which moves with them (pushed when bare). */
  async function addTag(tag: FixtureTag): Promise<FixtureRevision> {
    if (!options.bare) {
      const revision = await commitAndTag(tag);
      revisions[defaultBranch] = revision;
      return revision;
    }
    workDir = await mkdtemp(path.join(tmpdir(), 'packgate-fixture-work-'));
    try {
      await git(workDir, ['clone', '--quiet', '--branch', defaultBranch, dir, '.']);
      const revision = await commitAndTag(tag);
      const name = typeof tag === 'string' ? tag : tag.name;
      await git(workDir, ['push', '--quiet', 'origin', `refs/tags/${name}`, `HEAD:refs/heads/${defaultBranch}`]);
      revisions[defaultBranch] = revision;
      return revision;
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }

  return { dir, revisions, addTag };
}

/** A fresh temporary folder; pair with `removeTempDir` in afterEach/afterAll. */
export function createTempDir(prefix = 'packgate-test-'): Promise<string> {
  return mkdtemp(path.join(tmpdir(), prefix));
}

export function removeTempDir(dir: string): Promise<void> {
  return rm(dir, { recursive: true, force: true });
}

export type GitHttpServer = {
  /** Base URL; a repository `name.git` under the root is at `${url}/name.git`. */
  url: string;
  /** The Authorization header of every request received (undefined when none was sent). */
  authorizations: Array<string | undefined>;
  close(): Promise<void>;
};

/**
 * Serves the repositories under `rootDir` over git's smart HTTP protocol (git http-backend as CGI). With
 * `credentials`, requests without matching HTTP basic auth get 401, as a private GitHub repository would.
 */
export async function serveGitOverHttp(
  rootDir: string,
  credentials?: { username: string; password: string },
): Promise<GitHttpServer> {
  const expected = credentials
    ? `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`
    : undefined;
  const authorizations: Array<string | undefined> = [];
  const server = createServer((request, response) => {
    authorizations.push(request.headers.authorization);
    if (expected && request.headers.authorization !== expected) {
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end('Unauthorized');
      return;
    }
    const url = new URL(request.url ?? '/', 'http://localhost');
    runGitHttpBackend(request, response, { projectRoot: rootDir, pathInfo: decodeURIComponent(url.pathname) });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Answers one smart-HTTP request with `git http-backend` (as CGI): the repository is `projectRoot` joined with
 * `pathInfo` minus git's own suffix (`/info/refs`, `/git-upload-pack`), so `pathInfo` may be `/info/refs`
 * with `projectRoot` the repository itself.
 */
export function runGitHttpBackend(
  request: IncomingMessage,
  response: ServerResponse,
  options: { projectRoot: string; pathInfo: string },
): void {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const child = spawn('git', ['http-backend'], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_PROJECT_ROOT: options.projectRoot,
      GIT_HTTP_EXPORT_ALL: '1',
      GATEWAY_INTERFACE: 'CGI/1.1',
      REQUEST_METHOD: request.method ?? 'GET',
      PATH_INFO: options.pathInfo,
      QUERY_STRING: url.search.replace(/^\?/, ''),
      CONTENT_TYPE: request.headers['content-type'] ?? '',
      HTTP_CONTENT_ENCODING: request.headers['content-encoding'] ?? '',
      GIT_PROTOCOL: String(request.headers['git-protocol'] ?? ''),
      REMOTE_ADDR: '127.0.0.1',
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  request.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let headersSent = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (headersSent) {
      response.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end === -1) return;
    const headers: Record<string, string> = {};
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else headers[name] = value;
    }
    response.writeHead(status, headers);
    headersSent = true;
    response.write(head.subarray(end + 4));
  });
  child.on('close', () => response.end());
}

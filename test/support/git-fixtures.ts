import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
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

/** Who writes every fixture commit and tag, whether through `git commit` or `git fast-import`. */
const AUTHOR = { name: 'Fixture Author', email: 'author@fixture.test' };
const COMMITTER = { name: 'Fixture Committer', email: 'committer@fixture.test' };

/** git's environment for fixtures: no user or system configuration, a fixed identity. */
function gitEnvironment(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: AUTHOR.name,
    GIT_AUTHOR_EMAIL: AUTHOR.email,
    GIT_COMMITTER_NAME: COMMITTER.name,
    GIT_COMMITTER_EMAIL: COMMITTER.email,
    ...env,
  };
}

/** Runs git with no user or system configuration and a fixed identity. */
export async function git(cwd: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await execFileAsync(
    'git',
    ['-c', 'init.defaultBranch=main', '-c', 'commit.gpgSign=false', '-c', 'tag.gpgSign=false', ...args],
    { cwd, env: gitEnvironment(env) },
  );
  return stdout;
}

export type FixtureFiles = Record<string, string>;

/** The files under `dir` (an installed package, say) in the shape of a fixture revision's files, to compare them. */
export async function readFixtureTree(dir: string, prefix = ''): Promise<FixtureFiles> {
  const files: FixtureFiles = {};
  for (const entry of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(files, await readFixtureTree(dir, relative));
    else files[relative] = await readFile(path.join(dir, relative), 'utf8');
  }
  return files;
}

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

/** One commit or tag for `git fast-import`, in the order they are written. */
type ImportCommand =
  | {
      kind: 'commit';
      mark: number;
      ref: string;
      parent?: number | string;
      seconds: number;
      message: string;
      files: FixtureFiles;
    }
  | { kind: 'tag'; name: string; commit: number; annotated: boolean; seconds: number; message: string };

/** An identity as fast-import writes it: `Name <email> seconds +0000`. */
function importIdentity(who: { name: string; email: string }, seconds: number): string {
  return `${who.name} <${who.email}> ${seconds} +0000`;
}

/** The data command of fast-import's stream: the exact byte count, then the bytes. */
function importData(text: string): string {
  return `data ${Buffer.byteLength(text)}\n${text}\n`;
}

function importPath(file: string): string {
  if (file.includes('\n') || file.startsWith('"')) throw new Error(`A fixture path fast-import cannot take: ${file}`);
  return file;
}

/** The fast-import stream of `commands`: blobs inline, trees changed from the parent's (or whole for a root commit). */
function importStream(commands: ImportCommand[]): string {
  let stream = '';
  for (const command of commands) {
    if (command.kind === 'commit') {
      stream += `commit ${command.ref}\nmark :${command.mark}\n`;
      stream += `author ${importIdentity(AUTHOR, command.seconds)}\ncommitter ${importIdentity(COMMITTER, command.seconds)}\n`;
      stream += importData(`${command.message}\n`);
      if (command.parent !== undefined)
        stream += `from ${typeof command.parent === 'number' ? `:${command.parent}` : command.parent}\n`;
      for (const [file, content] of Object.entries(command.files)) {
        stream += `M 100644 inline ${importPath(file)}\n${importData(content)}`;
      }
      stream += '\n';
    } else if (command.annotated) {
      stream += `tag ${command.name}\nfrom :${command.commit}\ntagger ${importIdentity(COMMITTER, command.seconds)}\n`;
      stream += importData(`${command.message}\n`);
    } else {
      stream += `reset refs/tags/${command.name}\nfrom :${command.commit}\n\n`;
    }
  }
  return `${stream}done\n`;
}

/** Writes `commands` into the repository `cwd` is in, in one git process; returns each commit mark's object id. */
async function fastImport(cwd: string, commands: ImportCommand[]): Promise<Map<number, string>> {
  const marksFile = path.join(await mkdtemp(path.join(tmpdir(), 'packgate-fixture-marks-')), 'marks');
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn('git', ['fast-import', '--quiet', '--done', `--export-marks=${marksFile}`], {
        cwd,
        env: gitEnvironment(),
        stdio: ['pipe', 'ignore', 'pipe'],
      });
      let errors = '';
      child.stderr.on('data', (chunk: Buffer) => {
        errors += chunk.toString();
      });
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git fast-import failed: ${errors}`))));
      child.stdin.end(importStream(commands));
    });
    const marks = new Map<number, string>();
    for (const line of (await readFile(marksFile, 'utf8')).split('\n')) {
      const [mark, id] = line.split(' ');
      if (mark && id) marks.set(Number(mark.slice(1)), id);
    }
    return marks;
  } finally {
    await rm(path.dirname(marksFile), { recursive: true, force: true });
  }
}

/**
 * Creates a package repository at `dir`: a first commit, one commit per tag (VERSION and src/Version.php
 * name the tag), then one commit per branch on top of the last tag. Commit n is dated FIXTURE_EPOCH + n days.
 *
 * The history is written by one `git fast-import` instead of an add, a commit and a rev-parse per commit: every
 * git process is forked from the test worker, and a worker holding a few hundred MB (PGlite, the app) paid 15–25 ms
 * of the kernel's time per fork (the PGlite server files: ~600 forks per worker before, 350–400 after).
 */
export async function createPackageRepository(
  dir: string,
  options: PackageRepositoryOptions,
): Promise<PackageRepository> {
  const branches = options.branches ?? ['main'];
  const defaultBranch = branches[0] ?? 'main';
  await mkdir(dir, { recursive: true });
  await git(dir, ['init', '--quiet', ...(options.bare ? ['--bare'] : []), `--initial-branch=${defaultBranch}`]);

  let commitCount = 0;
  let tree: FixtureFiles = {};
  const revisions: Record<string, FixtureRevision> = {};

  /** A commit of `files` over the current tree, dated by its place in the history. */
  function nextCommit(ref: string, parent: number | string | undefined, files: FixtureFiles, message: string) {
    tree = { ...tree, ...files };
    const seconds = FIXTURE_EPOCH_SECONDS + commitCount * DAY_SECONDS;
    commitCount++;
    const command: ImportCommand = { kind: 'commit', mark: commitCount, ref, parent, seconds, message, files };
    return { command, revision: { commit: '', time: new Date(seconds * 1000), files: { ...tree } } };
  }

  function releaseCommands(tag: FixtureTag, parent: number | string | undefined) {
    const spec = typeof tag === 'string' ? { name: tag } : tag;
    const files: FixtureFiles = {
      VERSION: `${spec.name}\n`,
      'src/Version.php': `<?php\n\nreturn '${spec.name}';\n`,
      ...(spec.composerVersion !== undefined && !options.withoutComposerJson
        ? { 'composer.json': composerJson(options, spec.composerVersion) }
        : {}),
      ...spec.files,
    };
    const message = `Release ${spec.name}`;
    const { command, revision } = nextCommit(`refs/heads/${defaultBranch}`, parent, files, message);
    const tagCommand: ImportCommand = {
      kind: 'tag',
      name: spec.name,
      commit: command.mark,
      annotated: spec.annotated ?? false,
      seconds: command.seconds,
      message,
    };
    return { name: spec.name, commands: [command, tagCommand], mark: command.mark, revision };
  }

  const commands: ImportCommand[] = [];
  const marked: Array<{ mark: number; revision: FixtureRevision }> = [];
  const initial = nextCommit(
    `refs/heads/${defaultBranch}`,
    undefined,
    {
      ...(options.withoutComposerJson ? {} : { 'composer.json': composerJson(options) }),
      'README.md': `# ${options.name}\n`,
      ...options.files,
    },
    'Initial commit',
  );
  commands.push(initial.command);
  let releaseTip = initial.command.mark;
  for (const tag of options.tags ?? []) {
    const release = releaseCommands(tag, releaseTip);
    commands.push(...release.commands);
    marked.push({ mark: release.mark, revision: release.revision });
    revisions[release.name] = release.revision;
    releaseTip = release.mark;
  }
  const releaseTree = { ...tree };
  for (const branch of branches) {
    tree = { ...releaseTree };
    const work = nextCommit(
      `refs/heads/${branch}`,
      releaseTip,
      { 'BRANCH.md': `Work in progress on ${branch}\n` },
      `Work on ${branch}`,
    );
    commands.push(work.command);
    marked.push({ mark: work.command.mark, revision: work.revision });
    revisions[branch] = work.revision;
  }
  const marks = await fastImport(dir, commands);
  for (const { mark, revision } of marked) revision.commit = marks.get(mark) ?? '';
  tree = { ...revisions[defaultBranch]!.files };
  // A working tree shows the default branch, as after a commit there.
  if (!options.bare) await git(dir, ['reset', '--quiet', '--hard']);
  if (options.bare && options.gitDescription !== undefined)
    await writeFile(path.join(dir, 'description'), `${options.gitDescription}\n`);

  /** Later releases go on top of the default branch, which moves with them. */
  async function addTag(tag: FixtureTag): Promise<FixtureRevision> {
    const release = releaseCommands(tag, revisions[defaultBranch]!.commit);
    const added = await fastImport(dir, release.commands);
    release.revision.commit = added.get(release.mark) ?? '';
    if (!options.bare) await git(dir, ['reset', '--quiet', '--hard']);
    revisions[release.name] = release.revision;
    revisions[defaultBranch] = release.revision;
    return release.revision;
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

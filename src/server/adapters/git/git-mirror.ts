import { randomBytes } from 'node:crypto';
import { access, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type GitCallOptions, GitError, runGit } from './git-command.js';
import { fetchFromRemote, type RemoteAccess } from './git-remote.js';

/** Credentials for an http(s) source: sent as HTTP basic auth, `x-access-token` by default (GitHub's). */
export type GitAuth = { token: string; username?: string };

/**
 * Where a mirror fetches from: an absolute local path, or an http(s) URL without user info; with `access`, any git
 * server (an https or ssh URL) through git-remote.ts, guarded and bounded.
 */
export type CloneSource = { source: string; auth?: GitAuth; access?: RemoteAccess };

export type SyncMirrorOptions = CloneSource & { mirrorDir: string; timeoutMs?: number };

const SYNC_TIMEOUT_MS = 10 * 60_000;

// A mirror keeps branches and tags only: GitHub's refs/pull/* would multiply what is fetched for nothing.
const MIRROR_REFSPECS = ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'];

/** DATA_DIR/mirrors/{packageId}.git: a disposable cache, rebuilt by the next sync when deleted. */
export function mirrorPathFor(dataDir: string, packageId: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/.test(packageId)) {
    throw new GitError('INVALID_ARGUMENT', 'mirror', 'package id is not a safe folder name');
  }
  return path.join(dataDir, 'mirrors', `${packageId}.git`);
}

/** Runs the syncs of each mirror one after another; the app creates one and hands it out on its context. */
export type MirrorSyncer = { sync(options: SyncMirrorOptions): Promise<{ created: boolean }> };

// Syncs of one mirror run one after another in the syncer that holds its queue. Across processes git's own ref
// locks and content-addressed, rename-into-place object writes keep the repository consistent; the loser of a
// ref-lock race fails with a GitError and the next sync converges.
export function createMirrorSyncer(): MirrorSyncer {
  const queues = new Map<string, Promise<unknown>>();

  function serialised<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = queues.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.then(
      () => {},
      () => {},
    );
    queues.set(key, settled);
    void settled.then(() => {
      if (queues.get(key) === settled) queues.delete(key);
    });
    return next;
  }

  return {
    sync(options) {
      return serialised(path.resolve(options.mirrorDir), () => syncMirror(options));
    },
  };
}

type ParsedSource = { kind: 'path'; path: string } | { kind: 'url'; url: URL };

function parseSource(source: string, auth: GitAuth | undefined, hasAccess = false): ParsedSource {
  if (/[\0\r\n]/.test(source)) throw new GitError('INVALID_ARGUMENT', 'fetch', 'source contains control characters');
  if (path.isAbsolute(source)) return { kind: 'path', path: path.resolve(source) };
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    throw new GitError('INVALID_ARGUMENT', 'fetch', 'source must be an absolute path or an http(s) URL');
  }
  // ssh (with a user name in the URL, `git@`) only for any git server, whose access carries the key.
  if (url.protocol === 'ssh:' && hasAccess) return { kind: 'url', url };
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new GitError('INVALID_ARGUMENT', 'fetch', `unsupported source protocol ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new GitError('INVALID_ARGUMENT', 'fetch', 'source URL must not carry credentials; pass auth instead');
  }
  if (auth && url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new GitError('INVALID_ARGUMENT', 'fetch', 'refusing to send a credential over plain http');
  }
  return { kind: 'url', url };
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || hostname.startsWith('127.');
}

async function isRepository(dir: string): Promise<boolean> {
  try {
    await access(path.join(dir, 'HEAD'));
    await access(path.join(dir, 'objects'));
    return true;
  } catch {
    return false;
  }
}

/**
 * Creates the mirror (a bare repository holding the source's branches and tags) or brings it up to date,
 * pruning branches and tags deleted at the source and following force-moved ones.
 *
 * The token never reaches the disk or the process arguments: it travels as an `http.<url>.extraHeader`
 * entry in GIT_CONFIG_* environment variables, scoped to the source URL, and the mirror fetches from the
 * URL given each time, so its config stores no remote at all. Not queued: the app syncs through its MirrorSyncer.
 */
export async function syncMirror(options: SyncMirrorOptions): Promise<{ created: boolean }> {
  const mirrorDir = path.resolve(options.mirrorDir);
  const source = parseSource(options.source, options.auth, options.access !== undefined);
  if (await isRepository(mirrorDir)) {
    await fetchInto(mirrorDir, source, options);
    return { created: false };
  }
  // Built beside its final place and renamed in, so a failed first sync never leaves a half mirror.
  const building = `${mirrorDir}.tmp-${randomBytes(6).toString('hex')}`;
  await mkdir(path.dirname(mirrorDir), { recursive: true });
  try {
    await runGit(['init', '--bare', '--quiet', building]);
    await fetchInto(building, source, options);
    if (await moveIntoPlace(building, mirrorDir)) return { created: true };
    // Another process (or an unqueued call) created the mirror meanwhile: bring theirs up to date instead.
    await fetchInto(mirrorDir, source, options);
    return { created: false };
  } finally {
    await rm(building, { recursive: true, force: true });
  }
}

/** Renames the built mirror into place; false when a complete mirror is already there. */
async function moveIntoPlace(building: string, mirrorDir: string): Promise<boolean> {
  try {
    await rename(building, mirrorDir);
    return true;
  } catch (error) {
    if (!isFileExistsError(error)) throw error;
    if (await isRepository(mirrorDir)) return false;
    // A leftover that is not a repository (e.g. an interrupted manual copy): replace it.
    await rm(mirrorDir, { recursive: true, force: true });
    await rename(building, mirrorDir);
    return true;
  }
}

function isFileExistsError(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'EEXIST' || code === 'ENOTEMPTY';
}

async function fetchInto(gitDir: string, source: ParsedSource, options: SyncMirrorOptions): Promise<void> {
  const fetch = async (target: string, callOptions: GitCallOptions) => {
    await runGit(
      ['-C', gitDir, 'fetch', '--prune', '--force', '--no-tags', '--quiet', '--', target, ...MIRROR_REFSPECS],
      {
        timeoutMs: options.timeoutMs ?? SYNC_TIMEOUT_MS,
        ...callOptions,
      },
    );
  };

  if (source.kind === 'path') {
    // The operator put these repositories there: trust them even when another user owns them. Only a
    // config file reaches the upload-pack that git starts for a local source (it drops `-c` settings).
    return withSafeDirectories([source.path, path.join(source.path, '.git')], (globalConfigFile) =>
      fetch(source.path, { globalConfigFile }),
    );
  }
  if (options.access) {
    return fetchFromRemote(gitDir, source.url.href, options.access, {
      refspecs: MIRROR_REFSPECS,
      flags: ['--prune', '--force', '--no-tags', '--quiet'],
      timeoutMs: options.timeoutMs ?? SYNC_TIMEOUT_MS,
    });
  }
  if (!options.auth) return fetch(source.url.href, {});
  const credentials = Buffer.from(`${options.auth.username ?? 'x-access-token'}:${options.auth.token}`).toString(
    'base64',
  );
  const header = `Authorization: Basic ${credentials}`;
  await fetch(source.url.href, {
    hiddenConfig: [[`http.${source.url.href}.extraHeader`, header]],
    secrets: [options.auth.token, credentials],
  });
}

async function withSafeDirectories<T>(directories: string[], work: (configFile: string) => Promise<T>): Promise<T> {
  const folder = await mkdtemp(path.join(tmpdir(), 'packgate-git-'));
  try {
    const configFile = path.join(folder, 'config');
    const entries = directories.map((directory) => `\tdirectory = "${directory.replace(/[\\"]/g, '\\$&')}"\n`);
    await writeFile(configFile, `[safe]\n${entries.join('')}`, { mode: 0o600 });
    return await work(configFile);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

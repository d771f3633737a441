import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type GitCallOptions, GitError, runGit } from './git-command.js';

// Any git server by URL (issue 30 item 4): HTTPS with a user name and password, or SSH with a per-package deploy
// key and the server's host key pinned on first use. Every call runs without a prompt, follows no HTTP redirect,
// connects to the address the private-network guard checked (never resolving the name again), and is bounded: a
// references list past MAX_REFERENCES_BYTES and a fetch past its size bound are stopped. Credentials travel in
// GIT_CONFIG_* variables and files in a private temporary folder, never in arguments or URLs.

export type RemoteCredentials =
  | { kind: 'basic'; username: string; password: string }
  /** `knownHosts`: the pinned known_hosts line; null to pin on this call (accept-new). */
  | { kind: 'ssh'; privateKey: string; knownHosts: string | null };

export type RemoteAccess = {
  credentials?: RemoteCredentials;
  /** The checked address to connect to, so that a changed DNS answer cannot move the connection. */
  address?: string;
  /** What a fetch may add to the repository, in bytes (DEFAULT_MAX_FETCH_BYTES unless given). */
  maxFetchBytes?: number;
};

/** ~50 000 references: more than any package has, far less than a hostile server could send. */
export const MAX_REFERENCES_BYTES = 4 * 1024 * 1024;
export const DEFAULT_MAX_FETCH_BYTES = 1024 * 1024 * 1024;
const LIST_TIMEOUT_MS = 60_000;
const SIZE_CHECK_INTERVAL_MS = 1000;
const SUPPORTED_PROTOCOLS = new Set(['https:', 'http:', 'ssh:']);

/** The URL of a git server's repository: https, http (loopback tests, private networks) or ssh. */
export function parseRemoteUrl(raw: string): URL {
  if (/[\0\r\n\s]/.test(raw))
    throw new GitError('INVALID_ARGUMENT', 'ls-remote', 'the URL contains spaces or controls');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new GitError('INVALID_ARGUMENT', 'ls-remote', 'not a URL');
  }
  if (!SUPPORTED_PROTOCOLS.has(url.protocol)) {
    throw new GitError('INVALID_ARGUMENT', 'ls-remote', `unsupported protocol ${url.protocol}`);
  }
  if (url.password || (url.username && url.protocol !== 'ssh:')) {
    throw new GitError('INVALID_ARGUMENT', 'ls-remote', 'the URL must not carry credentials');
  }
  return url;
}

/** The host as known_hosts names it: `git.example.com`, or `[git.example.com]:2222` on another port. */
export function knownHostsName(url: URL): string {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return url.port && url.port !== '22' ? `[${host}]:${url.port}` : host;
}

/** `SHA256:…` of a known_hosts line's key, as `ssh-keygen -lf` and the servers' admins show it. */
export function hostKeyFingerprint(knownHostsLine: string): string {
  const blob = knownHostsLine.trim().split(/\s+/)[2] ?? '';
  const digest = createHash('sha256').update(Buffer.from(blob, 'base64')).digest('base64');
  // `=` is only ever base64's padding: dropping every one is the unpadded form ssh-keygen prints.
  return `SHA256:${digest.replaceAll('=', '')}`;
}

/** `text` without the run of `character` it ends with (a loop: a regex like /x+$/ backtracks on long runs). */
export function withoutTrailing(text: string, character: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === character) end--;
  return text.slice(0, end);
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

type RemoteSession = { options: GitCallOptions; knownHostsFile?: string; dispose(): Promise<void> };

/** The settings of one call to the remote; `dispose` removes the key files. */
async function openSession(url: URL, access: RemoteAccess): Promise<RemoteSession> {
  const scheme = url.protocol.slice(0, -1);
  const hiddenConfig: Array<[string, string]> = [
    ['protocol.allow', 'never'],
    [`protocol.${scheme}.allow`, 'always'],
  ];
  const secrets: string[] = [];
  const credentials = access.credentials;
  if (scheme !== 'ssh') {
    // A redirect could lead anywhere, a private address included: the seller gives the final URL instead.
    hiddenConfig.push(['http.followRedirects', 'false']);
    if (access.address) {
      const port = url.port || (scheme === 'https' ? '443' : '80');
      const address = access.address.includes(':') ? `[${access.address}]` : access.address;
      hiddenConfig.push(['http.curloptResolve', `${url.hostname}:${port}:${address}`]);
    }
    if (credentials?.kind === 'basic') {
      const encoded = Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64');
      hiddenConfig.push([`http.${url.href}.extraHeader`, `Authorization: Basic ${encoded}`]);
      secrets.push(credentials.password, encoded);
    }
    return { options: { hiddenConfig, secrets }, dispose: async () => {} };
  }
  if (credentials?.kind !== 'ssh') throw new GitError('INVALID_ARGUMENT', 'ls-remote', 'an ssh URL needs a key');
  // mkdtemp makes the folder 0700: the key is readable by this user only, as ssh insists.
  const folder = await mkdtemp(path.join(tmpdir(), 'packgate-ssh-'));
  const keyFile = path.join(folder, 'key');
  const knownHostsFile = path.join(folder, 'known_hosts');
  await writeFile(
    keyFile,
    credentials.privateKey.endsWith('\n') ? credentials.privateKey : `${credentials.privateKey}\n`,
    {
      mode: 0o600,
    },
  );
  await writeFile(knownHostsFile, credentials.knownHosts ? `${credentials.knownHosts.trim()}\n` : '', { mode: 0o600 });
  const sshOptions = [
    'BatchMode=yes',
    `StrictHostKeyChecking=${credentials.knownHosts ? 'yes' : 'accept-new'}`,
    `UserKnownHostsFile=${knownHostsFile}`,
    'GlobalKnownHostsFile=/dev/null',
    `HostKeyAlias=${knownHostsName(url)}`,
    'CheckHostIP=no',
    'UpdateHostKeys=no',
    'IdentitiesOnly=yes',
    'IdentityAgent=none',
    `IdentityFile=${keyFile}`,
    'PasswordAuthentication=no',
    'KbdInteractiveAuthentication=no',
    'ConnectTimeout=20',
    'LogLevel=ERROR',
    ...(access.address ? [`HostName=${access.address}`] : []),
  ];
  // -F /dev/null: no system or user ssh configuration (proxies, other keys, hashed host names) takes part.
  const command = ['ssh', '-F', '/dev/null', ...sshOptions.flatMap((option) => ['-o', shellQuote(option)])].join(' ');
  hiddenConfig.push(['core.sshCommand', command]);
  return {
    options: { hiddenConfig, secrets },
    knownHostsFile,
    dispose: () => rm(folder, { recursive: true, force: true }),
  };
}

async function withSession<T>(url: URL, access: RemoteAccess, work: (session: RemoteSession) => Promise<T>) {
  const session = await openSession(url, access);
  try {
    return await work(session);
  } finally {
    await session.dispose();
  }
}

export type RemoteReferences = {
  /** The branch HEAD names; null when the server does not say (or HEAD is detached). */
  defaultBranch: string | null;
  /** `refs/heads/…` and `refs/tags/…` to their commit (annotated tags peeled). */
  refs: Map<string, string>;
};

/** Reads `git ls-remote --symref` output: branches and tags, tags peeled, and what HEAD names. */
export function parseLsRemote(output: string): RemoteReferences {
  const refs = new Map<string, string>();
  let defaultBranch: string | null = null;
  for (const line of output.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const left = line.slice(0, tab);
    const name = line.slice(tab + 1);
    if (left.startsWith('ref: ')) {
      if (name === 'HEAD' && left.startsWith('ref: refs/heads/')) defaultBranch = left.slice('ref: refs/heads/'.length);
      continue;
    }
    if (name.startsWith('refs/tags/') && name.endsWith('^{}')) {
      refs.set(name.slice(0, -3), left);
    } else if ((name.startsWith('refs/heads/') || name.startsWith('refs/tags/')) && !refs.has(name)) {
      refs.set(name, left);
    }
  }
  return { defaultBranch, refs };
}

/** The remote's branches and tags, bounded: a list over MAX_REFERENCES_BYTES fails with OUTPUT_TOO_LARGE. */
export async function listRemoteReferences(
  target: string,
  access: RemoteAccess | undefined,
  options: { timeoutMs?: number; safeDirectories?: string[] } = {},
): Promise<RemoteReferences> {
  const run = (callOptions: GitCallOptions) =>
    runGit(['ls-remote', '--symref', '--', target], {
      ...callOptions,
      safeDirectories: options.safeDirectories,
      timeoutMs: options.timeoutMs ?? LIST_TIMEOUT_MS,
      maxOutputBytes: MAX_REFERENCES_BYTES,
    });
  const output = access
    ? await withSession(parseRemoteUrl(target), access, (session) => run(session.options))
    : await run({});
  return parseLsRemote(output.toString('utf8'));
}

/**
 * Connects once with StrictHostKeyChecking=accept-new and answers the host key the server showed, as a known_hosts
 * line: what later calls pin. The key need not be authorised yet (the host key comes before authentication).
 */
export async function pinSshHostKey(url: string, access: RemoteAccess): Promise<string> {
  const parsed = parseRemoteUrl(url);
  if (access.credentials?.kind !== 'ssh') throw new GitError('INVALID_ARGUMENT', 'ls-remote', 'an ssh key is needed');
  const unpinned: RemoteAccess = { ...access, credentials: { ...access.credentials, knownHosts: null } };
  return withSession(parsed, unpinned, async (session) => {
    const failure = await runGit(['ls-remote', '--', url, 'HEAD'], {
      ...session.options,
      timeoutMs: LIST_TIMEOUT_MS,
      maxOutputBytes: MAX_REFERENCES_BYTES,
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    const written = await readFile(session.knownHostsFile!, 'utf8').catch(() => '');
    const line = written.split('\n').find((entry) => entry.trim() !== '' && !entry.startsWith('#'));
    if (line) return line.trim();
    throw failure instanceof GitError ? failure : new GitError('UNREACHABLE', 'ls-remote', 'no host key was offered');
  });
}

async function folderSize(dir: string): Promise<number> {
  let total = 0;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const entryPath = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await folderSize(entryPath);
    else
      total += await stat(entryPath).then(
        (stats) => stats.size,
        () => 0,
      );
  }
  return total;
}

/**
 * Fetches `refspecs` from the remote into the bare repository `gitDir`, stopping (OUTPUT_TOO_LARGE) once its objects
 * grew by more than the access's size bound: an endless pack fills no disk. Leftover temporary packs are removed.
 */
export async function fetchFromRemote(
  gitDir: string,
  url: string,
  access: RemoteAccess,
  args: { refspecs: string[]; flags: string[]; timeoutMs: number },
): Promise<void> {
  const maxBytes = access.maxFetchBytes ?? DEFAULT_MAX_FETCH_BYTES;
  const objectsDir = path.join(gitDir, 'objects');
  const startSize = await folderSize(objectsDir);
  const controller = new AbortController();
  let tooLarge = false;
  let checking = false;
  const watch = setInterval(() => {
    if (checking) return;
    checking = true;
    void folderSize(objectsDir)
      .then((size) => {
        if (size - startSize > maxBytes) {
          tooLarge = true;
          controller.abort();
        }
      })
      .finally(() => {
        checking = false;
      });
  }, SIZE_CHECK_INTERVAL_MS);
  watch.unref();
  try {
    await withSession(parseRemoteUrl(url), access, (session) =>
      runGit(['-C', gitDir, 'fetch', ...args.flags, '--', url, ...args.refspecs], {
        ...session.options,
        timeoutMs: args.timeoutMs,
        signal: controller.signal,
      }),
    );
  } catch (error) {
    if (!tooLarge) throw error;
    await removeTemporaryPacks(gitDir);
    throw new GitError(
      'OUTPUT_TOO_LARGE',
      'fetch',
      `the repository is larger than ${Math.round(maxBytes / 1048576)} MB`,
    );
  } finally {
    clearInterval(watch);
  }
}

async function removeTemporaryPacks(gitDir: string): Promise<void> {
  const packDir = path.join(gitDir, 'objects', 'pack');
  const names = await readdir(packDir).catch(() => [] as string[]);
  await Promise.all(
    names.filter((name) => name.startsWith('tmp_')).map((name) => rm(path.join(packDir, name), { force: true })),
  );
}

/** One file of the remote's `branch` (a shallow fetch into a throw-away repository); undefined when absent. */
export async function readRemoteFile(
  url: string,
  access: RemoteAccess,
  branch: string,
  filePath: string,
  timeoutMs = LIST_TIMEOUT_MS,
): Promise<string | undefined> {
  const folder = await mkdtemp(path.join(tmpdir(), 'packgate-peek-'));
  try {
    await runGit(['init', '--bare', '--quiet', folder]);
    const ref = `refs/heads/${branch}`;
    await fetchFromRemote(folder, url, access, {
      refspecs: [`+${ref}:${ref}`],
      flags: ['--depth=1', '--no-tags', '--quiet'],
      timeoutMs,
    });
    const output = await runGit(['-C', folder, 'cat-file', 'blob', `${ref}:${filePath}`]).catch(() => undefined);
    return output?.toString('utf8');
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

import { finished } from 'node:stream/promises';
import { launchProcess } from '../process-launcher/process-launcher.js';

// Every git call of the server goes through here: argument arrays (no shell), a clean environment (no
// inherited GIT_DIR, no system or global configuration, no credential helper, never a prompt) and a
// timeout. git is started by the server's launcher process, never forked from the server itself
// (process-launcher.ts says why). Settings that must not show in `ps` (credentials) travel as GIT_CONFIG_* variables.

export type GitErrorCode =
  | 'INVALID_ARGUMENT'
  | 'NOT_FOUND'
  | 'AUTH_FAILED'
  /** An SSH server whose host key is not the one pinned for it (or none was pinned). */
  | 'HOST_KEY_MISMATCH'
  | 'UNREACHABLE'
  | 'TIMEOUT'
  | 'OUTPUT_TOO_LARGE'
  | 'GIT_UNAVAILABLE'
  | 'FAILED';

/** A failed git call; `detail` is git's stderr summarised, with credentials and URL user info removed. */
export class GitError extends Error {
  constructor(
    readonly code: GitErrorCode,
    readonly command: string,
    readonly detail = '',
  ) {
    super(detail ? `git ${command} failed (${code}): ${detail}` : `git ${command} failed (${code})`);
    this.name = 'GitError';
  }
}

export type GitCallOptions = {
  /** Kills git after this long; every call has one. */
  timeoutMs?: number;
  /** Configuration passed through the environment, so that values never appear in process arguments. */
  hiddenConfig?: Array<[key: string, value: string]>;
  /** Repositories owned by another user that git may open anyway (`safe.directory`). */
  safeDirectories?: string[];
  /** Strings to blank out of any error text (tokens, header values). */
  secrets?: string[];
  /**
   * Stands in for the user's global config file. Unlike `-c` settings, it reaches the git processes that
   * git starts for a local source (upload-pack), which is where `safe.directory` must be seen.
   */
  globalConfigFile?: string;
  /** Stops git early (e.g. a fetch that grew past its size bound); the call fails with code FAILED. */
  signal?: AbortSignal;
};

export const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
const FALLBACK_PATH = '/usr/local/bin:/usr/bin:/bin';

function gitEnvironment(options: GitCallOptions): NodeJS.ProcessEnv {
  const hiddenConfig = options.hiddenConfig ?? [];
  const env: NodeJS.ProcessEnv = {
    // PATH is passed through so that the operator's git is found; nothing else of ours is inherited.
    PATH: process.env.PATH || FALLBACK_PATH,
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: options.globalConfigFile ?? '/dev/null',
    GCM_INTERACTIVE: 'never',
  };
  if (hiddenConfig.length > 0) {
    env.GIT_CONFIG_COUNT = String(hiddenConfig.length);
    hiddenConfig.forEach(([key, value], index) => {
      env[`GIT_CONFIG_KEY_${index}`] = key;
      env[`GIT_CONFIG_VALUE_${index}`] = value;
    });
  }
  return env;
}

function gitArguments(args: string[], options: GitCallOptions): string[] {
  const config = [
    'credential.helper=',
    'core.askPass=',
    'protocol.ext.allow=never',
    'gc.autoDetach=false',
    ...(options.safeDirectories ?? []).map((directory) => `safe.directory=${directory}`),
  ];
  return [...config.flatMap((entry) => ['-c', entry]), ...args];
}

/** The git subcommand, for messages: `fetch`, `cat-file`, ... (never the arguments, which may hold URLs). */
function subcommandOf(args: string[]): string {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '-C' || arg === '-c') {
      index++;
      continue;
    }
    if (!arg.startsWith('-')) return arg;
  }
  return 'command';
}

/** Keeps the last meaningful lines of stderr, without hints, credentials or URL user info. */
export function summariseStderr(stderr: string, secrets: string[] = []): string {
  let text = stderr;
  for (const secret of secrets) if (secret) text = text.split(secret).join('***');
  text = text.replace(/:\/\/[^/\s@]*@/g, '://***@').replace(/(authorization:\s*)[^\r\n]*/gi, '$1***');
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('hint:'));
  // git's own verdicts first (the cause usually comes before "Could not read from remote repository").
  const verdicts = lines.filter((line) => /^(fatal|error):/.test(line));
  const summary = (verdicts.length > 0 ? verdicts.slice(0, 3) : lines.slice(-3)).join(' / ');
  return summary.length > 400 ? `${summary.slice(0, 397)}...` : summary;
}

export function classifyStderr(stderr: string): GitErrorCode {
  if (/host key verification failed|remote host identification has changed/i.test(stderr)) return 'HOST_KEY_MISMATCH';
  if (
    /authentication failed|could not read (username|password)|terminal prompts disabled|access denied|permission denied \(publickey|returned error: 40[13]/i.test(
      stderr,
    )
  ) {
    return 'AUTH_FAILED';
  }
  if (
    /repository not found|does not appear to be a git repository|not a git repository|not found|no such file or directory/i.test(
      stderr,
    )
  ) {
    return 'NOT_FOUND';
  }
  if (/could not resolve host|failed to connect|connection refused|connection timed out|ssl|tls/i.test(stderr)) {
    return 'UNREACHABLE';
  }
  return 'FAILED';
}

type ExitCause = {
  /** The spawn error's code (ENOENT: git is not installed). */
  code?: string;
  /** Killed by us: the timeout, the caller's signal, or output past its bound. */
  cause?: 'timeout' | 'aborted' | 'too-large';
  signal?: string | null;
};

function toGitError(exit: ExitCause, stderr: string, args: string[], options: GitCallOptions): GitError {
  const command = subcommandOf(args);
  const detail = summariseStderr(stderr, options.secrets);
  if (exit.code === 'ENOENT') return new GitError('GIT_UNAVAILABLE', command, 'the git command is not installed');
  if (exit.cause === 'too-large') return new GitError('OUTPUT_TOO_LARGE', command, detail);
  if (exit.cause === 'aborted') return new GitError('FAILED', command, detail || 'stopped');
  if (exit.cause === 'timeout') return new GitError('TIMEOUT', command, detail);
  if (exit.signal) return new GitError('FAILED', command, detail || `killed by ${exit.signal}`);
  if (exit.code) return new GitError('FAILED', command, detail || exit.code);
  return new GitError(classifyStderr(stderr), command, detail);
}

type GitRun = {
  stdout: NodeJS.ReadableStream;
  /** Settles when git has exited: on success, or with a GitError. */
  done: Promise<void>;
  /** Kills git (SIGKILL); `done` then fails with `cause`. */
  stop(cause: NonNullable<ExitCause['cause']>): void;
};

/** Starts git through the launcher with its timeout and the caller's signal watched. */
function startGit(args: string[], options: GitCallOptions & { input?: string | Buffer }): GitRun {
  const launched = launchProcess('git', gitArguments(args, options), {
    env: gitEnvironment(options),
    input: options.input,
  });
  let stderr = '';
  let stoppedFor: ExitCause['cause'];
  const stop = (cause: NonNullable<ExitCause['cause']>) => {
    stoppedFor ??= cause;
    launched.kill();
  };
  const timer = setTimeout(() => stop('timeout'), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const onAbort = () => stop('aborted');
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  launched.stderr.setEncoding('utf8');
  launched.stderr.on('data', (chunk: string) => {
    if (stderr.length < 64 * 1024) stderr += chunk;
  });
  const done = launched.exited.then(
    (exit) => {
      if (exit.code === 0 && !stoppedFor) return;
      throw toGitError({ cause: stoppedFor, signal: exit.signal }, stderr, args, options);
    },
    (error: { code?: string }) => {
      throw toGitError({ code: error.code ?? 'FAILED', cause: stoppedFor }, stderr, args, options);
    },
  );
  const settled = () => {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  };
  done.then(settled, settled);
  done.catch(() => {});
  return { stdout: launched.stdout, done, stop };
}

/** Runs git to completion and returns its stdout; throws GitError on a non-zero exit or a timeout. */
export async function runGit(
  args: string[],
  options: GitCallOptions & { input?: string | Buffer; maxOutputBytes?: number } = {},
): Promise<Buffer> {
  const maxBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const git = startGit(args, { ...options, input: options.input ?? '' });
  const chunks: Buffer[] = [];
  let size = 0;
  git.stdout.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) git.stop('too-large');
    else chunks.push(chunk);
  });
  // The output may still be flowing to its listener when git's exit is reported.
  await Promise.all([git.done, finished(git.stdout)]);
  return Buffer.concat(chunks);
}

/** Starts git with its stdout left to the caller (for `git archive`); `done` settles when git exits. */
export function spawnGit(
  args: string[],
  options: GitCallOptions = {},
): { stdout: NodeJS.ReadableStream; done: Promise<void>; kill(): void } {
  const git = startGit(args, options);
  return { stdout: git.stdout, done: git.done, kill: () => git.stop('aborted') };
}

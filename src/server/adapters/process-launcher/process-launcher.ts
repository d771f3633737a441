import { type ChildProcess, fork } from 'node:child_process';
import { Readable } from 'node:stream';
import type { LauncherReport, LauncherRequest } from './launcher-protocol.js';

// Why the server starts its commands (git) through a process of its own rather than with child_process.spawn:
// Node 20's libuv starts a command by forking, and a fork copies the page tables of the whole process, on the
// thread that asked. Measured on a two-core machine: spawning `true` cost the parent 5.6 ms of CPU at 56 MB
// resident and 13.2 ms at 372 MB (a server with its caches warm), during which its event loop answered nothing.
// A package sync runs a git command for every version it archives, so the warm Composer door stalled for 10 to
// 20 ms per version while a sync ran; in a CPU profile of a sync bench, spawn was 41.5% of the main thread.
// The launcher is a small Node process (nothing but Node's own modules) started once: the forks happen there, on
// its thread and with its small page tables, and the server only sends a message and reads the output back.
// It starts on the first command and stops after IDLE_MS without any, so an idle server does not keep it.

export type ProcessExit = { code: number | null; signal: NodeJS.Signals | null };

export type LaunchOptions = {
  env: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed; without it stdin is /dev/null. */
  input?: string | Buffer;
};

export type LaunchedProcess = {
  /** Flow-controlled: a reader that stops reading pauses the command's output in the launcher. */
  readonly stdout: Readable;
  readonly stderr: Readable;
  /**
   * Settles once the command has exited and all its output was pushed; rejects with the spawn error (its `code`,
   * ENOENT when the command is not installed) or with LAUNCHER_EXITED when the launcher itself died.
   */
  readonly exited: Promise<ProcessExit>;
  /** Kills the command with SIGKILL; nothing once it has exited. */
  kill(): void;
};

const IDLE_MS = 30_000;

type Running = {
  stdout: Readable;
  stderr: Readable;
  outputPaused: boolean;
  resolve(exit: ProcessExit): void;
  reject(error: Error): void;
};

class LauncherFailure extends Error {
  constructor(
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'LauncherFailure';
  }
}

/**
 * Where the launcher's code is: the build (scripts/build-server.mjs) compiles it to `process-launcher.child.js`
 * beside the server's own files; from the TypeScript sources (tsx, vitest) a small module registers tsx first.
 */
function launcherEntry(): URL {
  const isSource = import.meta.url.endsWith('.ts');
  return new URL(
    isSource ? './process-launcher.child-from-source.mjs' : './process-launcher.child.js',
    import.meta.url,
  );
}

function plainEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const plain: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) plain[key] = value;
  return plain;
}

export class ProcessLauncher {
  private helper: ChildProcess | undefined;
  private readonly running = new Map<number, Running>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly idleMs = IDLE_MS) {}

  launch(file: string, args: string[], options: LaunchOptions): LaunchedProcess {
    const id = this.nextId++;
    const helper = this.helperForWork();
    const send = (request: LauncherRequest) => {
      if (helper.connected) helper.send(request);
    };
    const entry = {} as Running;
    const stdout = new Readable({
      read: () => {
        if (!entry.outputPaused) return;
        entry.outputPaused = false;
        send({ kind: 'resume', id });
      },
    });
    const stderr = new Readable({ read: () => {} });
    const exited = new Promise<ProcessExit>((resolve, reject) => {
      Object.assign(entry, { stdout, stderr, outputPaused: false, resolve, reject });
    });
    exited.catch(() => {});
    this.running.set(id, entry);
    const input = options.input === undefined ? undefined : Buffer.from(options.input);
    send({ kind: 'start', id, file, args, env: plainEnvironment(options.env), input });
    return {
      stdout,
      stderr,
      exited,
      kill: () => {
        if (this.running.has(id)) send({ kind: 'kill', id });
      },
    };
  }

  /** Ends the launcher now (it kills what it still runs); the next command starts a new one. */
  stop(): void {
    if (this.helper) this.retire(this.helper);
    this.failAll('the process launcher was stopped');
  }

  private helperForWork(): ChildProcess {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (!this.helper) this.helper = this.startHelper();
    // Work in flight keeps the server's process alive, as a child process of its own would.
    this.helper.ref();
    this.helper.channel?.ref();
    return this.helper;
  }

  private startHelper(): ChildProcess {
    const helper = fork(launcherEntry(), [], {
      execArgv: [],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    helper.on('message', (message) => this.receive(message as LauncherReport));
    const ended = () => {
      if (this.helper !== helper) return;
      this.helper = undefined;
      clearTimeout(this.idleTimer);
      this.failAll('the process launcher stopped');
    };
    helper.once('exit', ended);
    // Every 'error' is listened to (a failed fork, a message that could not be sent): one unheard would end the server.
    helper.on('error', ended);
    return helper;
  }

  private receive(report: LauncherReport): void {
    const entry = this.running.get(report.id);
    if (!entry) return;
    switch (report.kind) {
      case 'stdout':
        if (!entry.stdout.push(Buffer.from(report.chunk.buffer, report.chunk.byteOffset, report.chunk.byteLength))) {
          if (!entry.outputPaused) {
            entry.outputPaused = true;
            this.helper?.send({ kind: 'pause', id: report.id } satisfies LauncherRequest);
          }
        }
        return;
      case 'stderr':
        entry.stderr.push(Buffer.from(report.chunk.buffer, report.chunk.byteOffset, report.chunk.byteLength));
        return;
      case 'exited':
        this.finish(report.id, entry);
        entry.resolve({ code: report.code, signal: report.signal });
        return;
      case 'failed':
        this.finish(report.id, entry);
        entry.reject(new LauncherFailure(report.code, report.message));
        return;
    }
  }

  private finish(id: number, entry: Running): void {
    this.running.delete(id);
    entry.stdout.push(null);
    entry.stderr.push(null);
    if (this.running.size === 0 && this.helper) this.becomeIdle(this.helper);
  }

  private becomeIdle(helper: ChildProcess): void {
    helper.unref();
    helper.channel?.unref();
    this.idleTimer = setTimeout(() => this.retire(helper), this.idleMs);
    this.idleTimer.unref();
  }

  /** Forgets the launcher before it ends, so that a command asked for meanwhile starts a new one. */
  private retire(helper: ChildProcess): void {
    clearTimeout(this.idleTimer);
    if (this.helper === helper) this.helper = undefined;
    if (helper.connected) helper.disconnect();
  }

  private failAll(message: string): void {
    const entries = [...this.running.entries()];
    this.running.clear();
    for (const [, entry] of entries) {
      entry.stdout.push(null);
      entry.stderr.push(null);
      entry.reject(new LauncherFailure('LAUNCHER_EXITED', message));
    }
  }
}

const shared = new ProcessLauncher();

/** Starts a command through the server's launcher process (see the top of this file for why). */
export function launchProcess(file: string, args: string[], options: LaunchOptions): LaunchedProcess {
  return shared.launch(file, args, options);
}

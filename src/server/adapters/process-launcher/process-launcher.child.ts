import { type ChildProcess, spawn } from 'node:child_process';
import type { LauncherReport, LauncherRequest } from './launcher-protocol.js';

// The launcher's own process: it starts the commands the server asks for and relays their output and exit. It
// imports nothing but Node, so it stays small (43 MB resident, built), and a fork of it copies little (see
// process-launcher.ts for why that matters). It ends with the server: when the IPC channel closes, every command
// it still runs is killed.

const running = new Map<number, ChildProcess>();

function report(message: LauncherReport): void {
  if (process.connected) process.send!(message);
}

function start(request: Extract<LauncherRequest, { kind: 'start' }>): void {
  const { id } = request;
  let child: ChildProcess;
  try {
    child = spawn(request.file, request.args, {
      env: request.env,
      stdio: [request.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException;
    report({ kind: 'failed', id, code: failure.code, message: failure.message });
    return;
  }
  running.set(id, child);
  child.stdout!.on('data', (chunk: Buffer) => report({ kind: 'stdout', id, chunk }));
  child.stderr!.on('data', (chunk: Buffer) => report({ kind: 'stderr', id, chunk }));
  if (request.input !== undefined) {
    // A command may exit before reading all of its input; its exit says why.
    child.stdin!.on('error', () => {});
    child.stdin!.end(Buffer.from(request.input.buffer, request.input.byteOffset, request.input.byteLength));
  }
  child.once('error', (error: NodeJS.ErrnoException) => {
    if (!running.delete(id)) return;
    report({ kind: 'failed', id, code: error.code, message: error.message });
  });
  // 'close' comes after the output streams have ended, so every chunk is reported before the exit.
  child.once('close', (code, signal) => {
    if (!running.delete(id)) return;
    report({ kind: 'exited', id, code, signal });
  });
}

function handle(request: LauncherRequest): void {
  if (request.kind === 'start') {
    start(request);
    return;
  }
  const child = running.get(request.id);
  if (!child) return;
  if (request.kind === 'kill') {
    // A killed git may leave a helper of its own (git-remote-http) holding the pipes open, and 'close' waits
    // for them: the output is dropped with the command.
    child.stdout!.destroy();
    child.stderr!.destroy();
    child.kill('SIGKILL');
  } else if (request.kind === 'pause') child.stdout!.pause();
  else child.stdout!.resume();
}

process.on('message', (message) => handle(message as LauncherRequest));
process.on('disconnect', () => {
  for (const child of running.values()) child.kill('SIGKILL');
  process.exit(0);
});

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';

// A git server over SSH for tests of deploy keys (issue 30 item 4): Debian's OpenSSH server (scripts/
// install-system-deps.sh installs it; a missing sshd fails the test, never skips it) on a random loopback port, run
// as the current user with a private configuration and its own host key. Keys in its authorized_keys may run
// git-upload-pack on the repositories under the root folder, and nothing else.

const SSHD = '/usr/sbin/sshd';
const execFileAsync = promisify(execFile);

export type SshGitServer = {
  port: number;
  /** The user to put in URLs: the current user, whom sshd lets in by key. */
  user: string;
  /** `ssh://{user}@127.0.0.1:{port}/{repositoryPath}`. */
  urlFor(repositoryPath: string): string;
  /** Lets this public key (an authorized_keys line) read the repositories. */
  authorize(publicKey: string): Promise<void>;
  /** The server's host key fingerprint, `SHA256:…`, as ssh-keygen shows it. */
  hostKeyFingerprint: string;
  /** Restarts sshd with a newly generated host key (what a changed or impersonated server looks like). */
  replaceHostKey(): Promise<void>;
  close(): Promise<void>;
};

/** Resolves once the port answers with an SSH banner. */
async function waitForBanner(port: number, child: ChildProcess, log: () => string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`sshd exited (${child.exitCode}): ${log()}`);
    const banner = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.setTimeout(1000);
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString('latin1'));
      });
      socket.once('error', () => resolve(''));
      socket.once('timeout', () => {
        socket.destroy();
        resolve('');
      });
    });
    if (banner.startsWith('SSH-')) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`sshd did not start: ${log()}`);
}

export async function startSshGitServer(rootDir: string): Promise<SshGitServer> {
  if (!existsSync(SSHD)) {
    throw new Error(`${SSHD} is missing: run scripts/install-system-deps.sh (it installs openssh-server)`);
  }
  const folder = await mkdtemp(path.join(tmpdir(), 'packgate-sshd-'));
  const hostKeyFile = path.join(folder, 'host_key');
  const authorizedKeysFile = path.join(folder, 'authorized_keys');
  const gateFile = path.join(folder, 'upload-pack-only.sh');
  const configFile = path.join(folder, 'sshd_config');
  const user = userInfo().username;
  // sshd started by root insists on its privilege-separation folder.
  if (process.getuid?.() === 0) await mkdir('/run/sshd', { recursive: true, mode: 0o755 });

  // The forced command: only `git-upload-pack '<path>'`, for a path under the root without `..`.
  await writeFile(
    gateFile,
    [
      '#!/bin/sh',
      'case "$SSH_ORIGINAL_COMMAND" in',
      `  *..*) echo "refused" >&2; exit 1 ;;`,
      `  "git-upload-pack '"*"'") repo="\${SSH_ORIGINAL_COMMAND#git-upload-pack \\'}"; repo="\${repo%\\'}"; exec git-upload-pack "${rootDir}/$repo" ;;`,
      '  *) echo "only git-upload-pack is allowed" >&2; exit 1 ;;',
      'esac',
      '',
    ].join('\n'),
  );
  await chmod(gateFile, 0o755);
  await writeFile(authorizedKeysFile, '', { mode: 0o600 });

  const port = await freePort();
  await writeFile(
    configFile,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKeyFile}`,
      `PidFile ${path.join(folder, 'sshd.pid')}`,
      `AuthorizedKeysFile ${authorizedKeysFile}`,
      `AllowUsers ${user}`,
      'StrictModes no',
      'UsePAM no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'PermitRootLogin prohibit-password',
      'AcceptEnv GIT_PROTOCOL',
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );

  let child: ChildProcess | undefined;
  let output = '';
  const state = { fingerprint: '' };

  async function generateHostKey(): Promise<void> {
    await rm(hostKeyFile, { force: true });
    await rm(`${hostKeyFile}.pub`, { force: true });
    await execFileAsync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKeyFile]);
    const { stdout } = await execFileAsync('ssh-keygen', ['-lf', `${hostKeyFile}.pub`]);
    state.fingerprint = stdout.split(' ')[1] ?? '';
  }

  async function start(): Promise<void> {
    output = '';
    const started = spawn(SSHD, ['-D', '-e', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    started.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    started.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child = started;
    await waitForBanner(port, started, () => output);
  }

  async function stop(): Promise<void> {
    const running = child;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  }

  await generateHostKey();
  await start();

  return {
    port,
    user,
    urlFor: (repositoryPath) => `ssh://${user}@127.0.0.1:${port}/${repositoryPath.replace(/^\/+/, '')}`,
    async authorize(publicKey) {
      const current = await readFile(authorizedKeysFile, 'utf8');
      await writeFile(authorizedKeysFile, `${current}restrict,command="${gateFile}" ${publicKey.trim()}\n`, {
        mode: 0o600,
      });
    },
    get hostKeyFingerprint() {
      return state.fingerprint;
    },
    async replaceHostKey() {
      await stop();
      await generateHostKey();
      await start();
    },
    async close() {
      await stop();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

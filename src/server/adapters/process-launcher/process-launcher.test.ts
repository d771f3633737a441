import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { type LaunchedProcess, ProcessLauncher } from './process-launcher.js';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
const launchers: ProcessLauncher[] = [];

function newLauncher(idleMs?: number): ProcessLauncher {
  const launcher = new ProcessLauncher(idleMs);
  launchers.push(launcher);
  return launcher;
}

async function outputOf(launched: LaunchedProcess): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of launched.stdout) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 400 && !check(); attempt++) await sleep(25);
}

afterEach(() => {
  for (const launcher of launchers.splice(0)) launcher.stop();
});

describe('ProcessLauncher', () => {
  it('starts the command from its own process, not as a child of the server', async () => {
    const launched = newLauncher().launch('sh', ['-c', 'echo $PPID'], { env });

    const parent = Number((await outputOf(launched)).trim());

    expect(await launched.exited).toEqual({ code: 0, signal: null });
    expect(parent).toBeGreaterThan(0);
    expect(parent).not.toBe(process.pid);
  });

  it('passes the input, the environment and the exit code through', async () => {
    const launcher = newLauncher();
    const launched = launcher.launch('sh', ['-c', 'cat; printf "|%s" "$GREETING"; exit 3'], {
      env: { ...env, GREETING: 'hello' },
      input: 'from stdin',
    });

    expect(await outputOf(launched)).toBe('from stdin|hello');
    expect(await launched.exited).toEqual({ code: 3, signal: null });
  });

  it('delivers large output intact to a reader that takes it slowly', async () => {
    // 8 MB through a reader that stops after each chunk: the launcher must pause the command, not drop bytes.
    const launcher = newLauncher();
    const expected = createHash('sha1');
    const reference = launcher.launch('sh', ['-c', 'seq 1 1000000'], { env });
    for await (const chunk of reference.stdout) expected.update(chunk as Buffer);

    const launched = launcher.launch('sh', ['-c', 'seq 1 1000000'], { env });
    const received = createHash('sha1');
    let size = 0;
    for await (const chunk of launched.stdout) {
      received.update(chunk as Buffer);
      size += (chunk as Buffer).length;
      await sleep(0);
    }

    expect(size).toBe(6_888_896);
    expect(received.digest('hex')).toBe(expected.digest('hex'));
    expect(await launched.exited).toEqual({ code: 0, signal: null });
  });

  it('holds the command back while nobody reads its output', async () => {
    // Without flow control the 64 MB would pile up in the server's memory and the command would have exited.
    const launched = newLauncher().launch('head', ['-c', String(64 * 1024 * 1024), '/dev/zero'], { env });
    let exited = false;
    void launched.exited.then(() => {
      exited = true;
    });

    await sleep(1000);
    expect(exited).toBe(false);
    expect(launched.stdout.readableLength).toBeLessThan(8 * 1024 * 1024);

    let size = 0;
    for await (const chunk of launched.stdout) size += (chunk as Buffer).length;
    expect(size).toBe(64 * 1024 * 1024);
    expect(await launched.exited).toEqual({ code: 0, signal: null });
  });

  it('rejects with ENOENT for a command that is not installed', async () => {
    const launched = newLauncher().launch('packgate-no-such-command', [], { env });

    await expect(launched.exited).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('kills a running command', async () => {
    const launched = newLauncher().launch('sleep', ['600'], { env });

    launched.kill();

    expect(await launched.exited).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('fails what runs when the launcher dies, and starts a new one for the next command', async () => {
    const launcher = newLauncher();
    const first = launcher.launch('sh', ['-c', 'echo $PPID; exec sleep 30'], { env });
    const reader = first.stdout[Symbol.asyncIterator]();
    const launcherPid = Number(String((await reader.next()).value).trim());

    process.kill(launcherPid, 'SIGKILL');

    await expect(first.exited).rejects.toMatchObject({ code: 'LAUNCHER_EXITED' });
    const next = launcher.launch('sh', ['-c', 'echo $PPID'], { env });
    const nextPid = Number((await outputOf(next)).trim());
    expect(nextPid).not.toBe(launcherPid);
    expect(await next.exited).toEqual({ code: 0, signal: null });
  });

  it('ends the launcher process once it has been idle', async () => {
    const launcher = newLauncher(50);
    const launched = launcher.launch('sh', ['-c', 'echo $PPID'], { env });
    const launcherPid = Number((await outputOf(launched)).trim());
    await launched.exited;

    await until(() => !isAlive(launcherPid));

    expect(isAlive(launcherPid)).toBe(false);
  });
});

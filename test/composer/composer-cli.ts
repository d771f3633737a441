import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

// The real, unmodified composer command as the tests run it: a private home and cache, no packagist, no prompts,
// no colours, so that its output can be read as text.

const execFileAsync = promisify(execFile);

export type ComposerRun = { code: number; output: string };

/** Runs composer in `cwd` with its home under `home`; never throws (a failure is its exit code and output). */
export async function runComposer(
  cwd: string,
  args: string[],
  options: { home: string; cacheDir?: string; audit?: boolean },
): Promise<ComposerRun> {
  try {
    const { stdout, stderr } = await execFileAsync('composer', [...args, '--no-interaction', '--no-ansi'], {
      cwd,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: options.home,
        COMPOSER_HOME: path.join(options.home, 'composer-home'),
        COMPOSER_CACHE_DIR: options.cacheDir ?? path.join(options.home, 'composer-cache'),
        ...(options.audit === false ? { COMPOSER_NO_AUDIT: '1' } : {}),
        COMPOSER_ALLOW_SUPERUSER: '1',
        COMPOSER_DISABLE_XDEBUG_WARN: '1',
      },
      timeout: 60_000,
    });
    return { code: 0, output: `${stdout}\n${stderr}` };
  } catch (error) {
    const failure = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failure.code === 'number' ? failure.code : 1,
      output: `${failure.stdout}\n${failure.stderr}`,
    };
  }
}

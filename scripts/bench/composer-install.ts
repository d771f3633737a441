import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execFileAsync } from './processes.js';

// `composer install` of one project needing N packages, from a repository URL, with an empty Composer cache every
// run so that every metadata file and zip is fetched. The median of a few runs is reported.

export type ComposerTarget = { repositoryUrl: string; token?: string };

/** A project needing the given packages from one repository (auth.json with the token when there is one). */
export async function prepareProject(
  workDir: string,
  label: string,
  target: ComposerTarget,
  packageNames: string[],
): Promise<string> {
  const projectDir = path.join(workDir, `project-${label}`);
  await mkdir(projectDir, { recursive: true });
  const manifest = {
    name: 'bench/project',
    type: 'project',
    repositories: [{ type: 'composer', url: target.repositoryUrl }, { 'packagist.org': false }],
    require: Object.fromEntries(packageNames.map((name) => [name, '^1.0'])),
    config: { 'secure-http': false },
  };
  await writeFile(path.join(projectDir, 'composer.json'), `${JSON.stringify(manifest, null, 4)}\n`);
  if (target.token) {
    const host = new URL(target.repositoryUrl).host;
    await writeFile(path.join(projectDir, 'auth.json'), JSON.stringify({ bearer: { [host]: target.token } }));
  }
  return projectDir;
}

/** Runs one composer command in the project with the given cache folder; returns its wall time in ms. */
export async function timeComposer(
  workDir: string,
  projectDir: string,
  cacheDir: string,
  command: 'install' | 'update',
): Promise<number> {
  const started = performance.now();
  await execFileAsync('composer', [command, '--no-interaction', '--no-progress', '--quiet', '--no-ansi'], {
    cwd: projectDir,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: workDir,
      COMPOSER_HOME: path.join(workDir, 'composer-home'),
      COMPOSER_CACHE_DIR: cacheDir,
      COMPOSER_NO_AUDIT: '1',
      COMPOSER_ALLOW_SUPERUSER: '1',
    },
    timeout: 300_000,
  });
  return performance.now() - started;
}

/** A fresh install: no vendor folder and no lock file, so that metadata is read and every package installed. */
export async function resetProject(projectDir: string): Promise<void> {
  await rm(path.join(projectDir, 'vendor'), { recursive: true, force: true });
  await rm(path.join(projectDir, 'composer.lock'), { force: true });
}

export async function timeComposerInstall(
  workDir: string,
  label: string,
  target: ComposerTarget,
  packageNames: string[],
  runs: number,
): Promise<number[]> {
  const projectDir = await prepareProject(workDir, label, target, packageNames);
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const cacheDir = path.join(workDir, `composer-cache-${label}-${run}`);
    await resetProject(projectDir);
    times.push(await timeComposer(workDir, projectDir, cacheDir, 'install'));
    await rm(cacheDir, { recursive: true, force: true });
  }
  return times;
}

/** Copies a file into the static tree at the URL path it must be served from. */
export async function placeStatic(rootDir: string, urlPath: string, source: string | Buffer): Promise<void> {
  const target = path.join(rootDir, ...urlPath.split('/').filter(Boolean).map(decodeURIComponent));
  await mkdir(path.dirname(target), { recursive: true });
  if (typeof source === 'string') await cp(source, target);
  else await writeFile(target, source);
}

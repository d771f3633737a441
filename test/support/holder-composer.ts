import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { runComposer } from '../composer/composer-cli.js';
import type { TestApp } from './test-app.js';

/**
 * The real composer as a license holder runs it: in a new `project` that knows only seller acme's repository on `app`,
 * the repository and the holder's token configured, then `composer require <requirement>`; each command must succeed.
 * Answers the packages composer.lock holds.
 */
export async function requireAsHolder(
  app: TestApp,
  token: string,
  folders: { project: string; home: string },
  requirement: string,
): Promise<{ name: string; version: string }[]> {
  await mkdir(folders.project, { recursive: true });
  const manifest = { name: 'holder/project', repositories: { 'packagist.org': false }, require: {} };
  await writeFile(path.join(folders.project, 'composer.json'), JSON.stringify(manifest));
  const host = `acme.${app.ctx.config.composerDomain}:${app.port}`;
  for (const args of [
    ['config', 'repositories.acme', 'composer', `http://${host}`],
    ['config', 'secure-http', 'false'],
    ['config', `bearer.${host}`, token],
    ['require', requirement],
  ]) {
    const run = await runComposer(folders.project, args, { home: folders.home, audit: false });
    expect(run.code, run.output).toBe(0);
  }
  return JSON.parse(await readFile(path.join(folders.project, 'composer.lock'), 'utf8')).packages;
}

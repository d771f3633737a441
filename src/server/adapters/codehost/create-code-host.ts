import { existsSync } from 'node:fs';
import type { Config } from '../../config.js';
import type { CodeHost, CodeHostKind } from './code-host.js';
import { GithubCodeHost } from './github-code-host.js';
import { LocalCodeHost } from './local-code-host.js';

/** GitHub (or GitHub Enterprise Server) when configured; otherwise git repositories in GIT_REPOS_DIR. */
export function createCodeHost(config: Config): CodeHost {
  if (config.github) return new GithubCodeHost({ webUrl: config.github.webUrl, apiUrl: config.github.apiUrl });
  return new LocalCodeHost(config.gitReposDir);
}

/**
 * Every host a package may come from on this server, by kind: the one new packages are added from, and the local
 * folder too while GIT_REPOS_DIR exists, so that packages added before GitHub was configured keep syncing (issue 36).
 */
export function reachableCodeHosts(config: Config, primary: CodeHost): Partial<Record<CodeHostKind, CodeHost>> {
  const hosts: Partial<Record<CodeHostKind, CodeHost>> = { [primary.kind]: primary };
  if (primary.kind !== 'local' && existsSync(config.gitReposDir)) hosts.local = new LocalCodeHost(config.gitReposDir);
  return hosts;
}

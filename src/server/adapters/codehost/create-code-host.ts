import type { Config } from '../../config.js';
import type { CodeHost } from './code-host.js';
import { GithubCodeHost } from './github-code-host.js';
import { LocalCodeHost } from './local-code-host.js';

/** GitHub (or GitHub Enterprise Server) when configured; otherwise git repositories in GIT_REPOS_DIR. */
export function createCodeHost(config: Config): CodeHost {
  if (config.github) return new GithubCodeHost({ webUrl: config.github.webUrl, apiUrl: config.github.apiUrl });
  return new LocalCodeHost(config.gitReposDir);
}

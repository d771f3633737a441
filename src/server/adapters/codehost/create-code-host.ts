import type { Config } from '../../config.js';
import type { CodeHost } from './code-host.js';
import { LocalCodeHost } from './local-code-host.js';

/** GitHub (or GitHub Enterprise Server) when configured; otherwise git repositories in GIT_REPOS_DIR. */
export function createCodeHost(config: Config): CodeHost {
  // The GitHub code host arrives with the packages feature; until then every deployment uses the local folder.
  return new LocalCodeHost(config.gitReposDir);
}

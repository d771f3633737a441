import type { CodeHostConnectionKind } from '../../db/schema/index.js';
import { bitbucketDriver } from './bitbucket-driver.js';
import type { ConnectionDriver } from './connection-driver.js';
import { gitDriver } from './git-driver.js';
import { githubAppDriver } from './github-app-driver.js';
import { githubOAuthDriver } from './github-oauth-driver.js';
import { gitlabDriver } from './gitlab-driver.js';
import { localDriver } from './local-driver.js';

// Every kind of connection and its driver: each line imports its own driver file (issue 30's seam).

export const connectionDrivers: Partial<Record<CodeHostConnectionKind, ConnectionDriver>> = {
  local: localDriver,
  github_oauth: githubOAuthDriver,
  github_app: githubAppDriver,
  gitlab: gitlabDriver,
  bitbucket: bitbucketDriver,
  git: gitDriver,
};

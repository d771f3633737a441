import type { CodeHostOverview } from '../../../contract/code-hosts.js';
import type { AppContext } from '../../context.js';

/** Which kinds of connection this server lets a seller make (each kind's settings are configured). */
export function availableKinds(ctx: AppContext): CodeHostOverview['available'] {
  return {
    githubApp: ctx.config.githubApp !== undefined,
    local: ctx.codeHosts.local !== undefined,
    // Access tokens need no server setting; GitLab's OAuth button shows when GITLAB_CLIENT_ID is set.
    gitlab: true,
    bitbucket: true,
    // Any git server needs no setting: its repositories are added by URL (the connection is made then).
    git: true,
  };
}

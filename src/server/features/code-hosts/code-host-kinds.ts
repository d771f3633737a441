import type { CodeHostOverview } from '../../../contract/code-hosts.js';
import type { AppContext } from '../../context.js';

/** Which kinds of connection this server lets a seller make (each kind's settings are configured). */
export function availableKinds(ctx: AppContext): CodeHostOverview['available'] {
  return {
    githubApp: ctx.config.githubApp !== undefined,
    local: ctx.codeHosts.local !== undefined,
    gitlab: false,
    bitbucket: false,
    git: false,
  };
}

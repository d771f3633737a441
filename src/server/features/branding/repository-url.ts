import type { AppContext } from '../../context.js';
import { type RepositorySeller, repositoryUrl } from '../../http/public-urls.js';

export { composerAuthHost, repositoryNameFor, setupCommands } from '../../../contract/setup-commands.js';
export type { RepositorySeller } from '../../http/public-urls.js';

/**
 * The seller's Composer repository URL (DESIGN.md "Hosts"): the scheme and port of PUBLIC_URL with
 * the host `{slug}.{COMPOSER_DOMAIN}`, e.g. `http://acme.composer.localhost:5000` on the embedded default,
 * or the seller's verified custom domain (a CNAME to the same servers) when given. Built by http/public-urls.ts,
 * where every absolute URL Packgate sends is made.
 */
export function repositoryUrlFor(ctx: Pick<AppContext, 'config'>, seller: RepositorySeller): string {
  return repositoryUrl(ctx.config, seller);
}

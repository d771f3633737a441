import type { AppContext } from '../../context.js';

export { composerAuthHost, repositoryNameFor, setupCommands } from '../../../contract/setup-commands.js';

/** What the repository URL depends on: the seller's subdomain, or their verified custom domain. */
export type RepositorySeller = { slug: string; brandDomain?: string };

/**
 * The seller's Composer repository URL (DESIGN.md "Hosts"): the scheme and port of PUBLIC_URL with
 * the host `{slug}.{COMPOSER_DOMAIN}`, e.g. `http://acme.composer.localhost:5000` on the embedded default,
 * or the seller's verified custom domain (a CNAME to the same servers) when given.
 * The app listens on one port for every host, so the port of PUBLIC_URL is the repository's port too.
 */
export function repositoryUrlFor(ctx: Pick<AppContext, 'config'>, seller: RepositorySeller): string {
  const publicUrl = new URL(ctx.config.publicUrl);
  // URL drops a scheme's default port (http:80, https:443), and so does Composer's own origin.
  const port = publicUrl.port ? `:${publicUrl.port}` : '';
  const host = seller.brandDomain ?? `${seller.slug}.${ctx.config.composerDomain}`;
  return `${publicUrl.protocol}//${host}${port}`;
}

import type { AppContext } from '../../context.js';

/** What the repository URL depends on: the seller's subdomain. */
export type RepositorySeller = { slug: string };

/**
 * The seller's Composer repository URL (DESIGN.md "Hosts"): the scheme and port of PUBLIC_URL with
 * the host `{slug}.{COMPOSER_DOMAIN}`, e.g. `http://acme.composer.localhost:5000` on the embedded default.
 * The app listens on one port for every host, so the port of PUBLIC_URL is the repository's port too.
 */
export function repositoryUrlFor(ctx: Pick<AppContext, 'config'>, seller: RepositorySeller): string {
  const publicUrl = new URL(ctx.config.publicUrl);
  // URL drops a scheme's default port (http:80, https:443), and so does Composer's own origin.
  const port = publicUrl.port ? `:${publicUrl.port}` : '';
  return `${publicUrl.protocol}//${seller.slug}.${ctx.config.composerDomain}${port}`;
}

/**
 * The key Composer looks the bearer token up by: host plus `:port` when the URL names a port.
 * Composer's Url::getOrigin builds it from parse_url host and port, so `bearer.acme.composer.localhost`
 * is never sent to `http://acme.composer.localhost:5000` (checked with the real client, Composer 2.5).
 */
export function composerAuthHost(repositoryUrl: string): string {
  return new URL(repositoryUrl).host;
}

/** Composer's name for the repository entry in composer.json: the package's vendor. */
export function repositoryNameFor(packageName: string): string {
  return packageName.split('/')[0] ?? packageName;
}

export type SetupCommandsInput = {
  repositoryUrl: string;
  packageName: string;
  /** The holder's token; a placeholder when it cannot be shown (it is stored hashed). */
  token: string;
};

/**
 * The commands a license holder types in their project, in the order they must run: Composer refuses
 * plain http unless secure-http is off, and the bearer must be set before `require` reads the repository.
 */
export function setupCommands(input: SetupCommandsInput): string[] {
  const commands = [
    `composer config repositories.${repositoryNameFor(input.packageName)} composer ${input.repositoryUrl}`,
  ];
  if (new URL(input.repositoryUrl).protocol === 'http:') commands.push('composer config secure-http false');
  commands.push(`composer config bearer.${composerAuthHost(input.repositoryUrl)} ${input.token}`);
  commands.push(`composer require ${input.packageName}`);
  return commands;
}

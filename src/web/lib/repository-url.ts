import { useCurrentUser } from './current-user';
import { usePublicConfig } from './public-config';

/**
 * The seller's own Composer repository host (DESIGN.md "Hosts"): `{slug}.{COMPOSER_DOMAIN}` with the
 * app's scheme and port, e.g. http://acme.composer.localhost:5000.
 */
export function composerRepositoryUrl(input: { slug: string; composerDomain: string; publicUrl: string }): string {
  const app = new URL(input.publicUrl);
  const port = app.port ? `:${app.port}` : '';
  return `${app.protocol}//${input.slug}.${input.composerDomain}${port}`;
}

/** The signed-in seller's repository URL; undefined until the user and the configuration are known. */
export function useRepositoryUrl(): string | undefined {
  const { data: user } = useCurrentUser();
  const { data: config } = usePublicConfig();
  if (!user || !config) return undefined;
  try {
    return composerRepositoryUrl({
      slug: user.slug,
      composerDomain: config.composerDomain,
      publicUrl: config.publicUrl,
    });
  } catch {
    return undefined;
  }
}

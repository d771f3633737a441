// The commands a license holder types, shared by the license e-mail (server) and the Setup Guide (web),
// so that both always say the same thing.

/** Stands for the holder's token where it cannot be shown (tokens are stored hashed). */
export const TOKEN_PLACEHOLDER = 'YOUR_TOKEN';

/**
 * The key Composer looks the bearer token up by: host plus `:port` when the URL names a port.
 * Composer's Url::getOrigin builds it from parse_url host and port, so `bearer.acme.composer.localhost`
 * is never sent to `http://acme.composer.localhost:5000` (checked with the real client, Composer 2.5).
 */
export function composerAuthHost(repositoryUrl: string): string {
  return new URL(repositoryUrl).host;
}

/**
 * Composer's name for the repository entry in composer.json: the seller's slug. All of a seller's packages come from
 * one repository URL, so two packages of one seller share one entry (`repositories.acme`), whatever their vendors.
 */
export function repositoryNameFor(sellerSlug: string): string {
  return sellerSlug;
}

/** Composer refuses plain-http repositories unless secure-http is off (local and test deployments). */
export function isPlainHttp(repositoryUrl: string): boolean {
  return new URL(repositoryUrl).protocol === 'http:';
}

export type SetupCommandsInput = {
  repositoryUrl: string;
  /** The seller whose repository this is: names the repository entry. */
  sellerSlug: string;
  packageName: string;
  /** The holder's token, or TOKEN_PLACEHOLDER. */
  token: string;
};

/** The three setup steps' commands; adding the repository includes `secure-http false` on plain http. */
export function setupCommandSteps(input: SetupCommandsInput): {
  addRepository: string[];
  setToken: string[];
  require: string[];
} {
  const addRepository = [
    `composer config repositories.${repositoryNameFor(input.sellerSlug)} composer ${input.repositoryUrl}`,
  ];
  if (isPlainHttp(input.repositoryUrl)) addRepository.push('composer config secure-http false');
  return {
    addRepository,
    setToken: [`composer config bearer.${composerAuthHost(input.repositoryUrl)} ${input.token}`],
    require: [`composer require ${input.packageName}`],
  };
}

/** Every command in the order it must run: the bearer must be set before `require` reads the repository. */
export function setupCommands(input: SetupCommandsInput): string[] {
  const steps = setupCommandSteps(input);
  return [...steps.addRepository, ...steps.setToken, ...steps.require];
}

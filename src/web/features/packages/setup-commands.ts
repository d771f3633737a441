// The Setup Guide's three steps (spec seller-app §9): the same commands, in the same order, as the
// license holder's e-mail (server features/licenses/repository-url.ts), with a placeholder for the token.

/** Stands for the holder's token, which only their e-mail shows (tokens are stored hashed). */
export const TOKEN_PLACEHOLDER = 'YOUR_TOKEN';

export type SetupStep = { title: string; description: string; commands: string[] };

/** Composer's name for the repository entry in composer.json: the package's vendor. */
export const repositoryNameFor = (packageName: string): string => packageName.split('/')[0] || packageName;

/** Composer looks a bearer token up by host plus `:port` when the URL names one. */
export const composerAuthHost = (repositoryUrl: string): string => new URL(repositoryUrl).host;

export const isPlainHttp = (repositoryUrl: string): boolean => new URL(repositoryUrl).protocol === 'http:';

export function setupGuideSteps(repositoryUrl: string, packageName: string): SetupStep[] {
  const addRepository = [`composer config repositories.${repositoryNameFor(packageName)} composer ${repositoryUrl}`];
  // Composer refuses plain http unless secure-http is off (local and test deployments).
  if (isPlainHttp(repositoryUrl)) addRepository.push('composer config secure-http false');
  return [
    {
      title: 'Add the repository',
      description:
        "Run this in your project's folder (the one with composer.json) so Composer knows where the package lives.",
      commands: addRepository,
    },
    {
      title: 'Set your access token',
      description: `Composer sends the token to ${composerAuthHost(repositoryUrl)} only. Replace ${TOKEN_PLACEHOLDER} with the token from the license e-mail; Composer keeps it in auth.json, so leave that file out of version control.`,
      commands: [`composer config bearer.${composerAuthHost(repositoryUrl)} ${TOKEN_PLACEHOLDER}`],
    },
    {
      title: 'Require the package',
      description: 'Composer installs the newest version the license allows; composer update brings later releases.',
      commands: [`composer require ${packageName}`],
    },
  ];
}

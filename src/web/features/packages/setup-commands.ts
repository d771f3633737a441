// The Setup Guide's three steps (spec seller-app §9): the same commands as the license holder's e-mail,
// from the shared contract, with a placeholder for the token.
import {
  composerAuthHost,
  isPlainHttp,
  repositoryNameFor,
  setupCommandSteps,
  TOKEN_PLACEHOLDER,
} from '../../../contract/setup-commands';

export { composerAuthHost, isPlainHttp, repositoryNameFor, TOKEN_PLACEHOLDER };

export type SetupStep = { title: string; description: string; commands: string[] };

export function setupGuideSteps(repositoryUrl: string, sellerSlug: string, packageName: string): SetupStep[] {
  const commands = setupCommandSteps({ repositoryUrl, sellerSlug, packageName, token: TOKEN_PLACEHOLDER });
  return [
    {
      title: 'Add the repository',
      description:
        "Run this in your project's folder (the one with composer.json) so Composer knows where the package lives.",
      commands: commands.addRepository,
    },
    {
      title: 'Set your access token',
      description: `Composer sends the token to ${composerAuthHost(repositoryUrl)} only. Replace ${TOKEN_PLACEHOLDER} with the token from the license e-mail; Composer keeps it in auth.json, so leave that file out of version control.`,
      commands: commands.setToken,
    },
    {
      title: 'Require the package',
      description: 'Composer installs the newest version the license allows; composer update brings later releases.',
      commands: commands.require,
    },
  ];
}

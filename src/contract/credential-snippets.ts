import { composerAuthHost } from './setup-commands.js';

// Ready snippets for every place a Composer token goes (issue 32 item 5), shared by the license e-mail (server) and
// the portal (web) so that both say the same. Each names the seller's repository host as configuration gives it
// (never a request header) and a placeholder for a token of the right kind; only the token being delivered in an
// e-mail may stand in for a placeholder there.

export type CredentialSnippet = {
  id: string;
  title: string;
  /** The kind of token to create for this place (developer, ci, deploy, bot). */
  kind: 'developer' | 'ci' | 'deploy' | 'bot';
  text: string;
};

const placeholder = (kind: CredentialSnippet['kind']) => `YOUR_${kind.toUpperCase()}_TOKEN`;

/** Every snippet for the repository at `repositoryUrl`; `developerToken` fills the auth.json one when given. */
export function credentialSnippets(repositoryUrl: string, developerToken?: string): CredentialSnippet[] {
  const host = composerAuthHost(repositoryUrl);
  const url = new URL(repositoryUrl);
  const origin = url.origin;
  const hostname = url.hostname;
  const developer = developerToken ?? placeholder('developer');
  return [
    {
      id: 'auth-json',
      title: 'auth.json (next to composer.json; keep it out of git)',
      kind: 'developer',
      text: `${JSON.stringify({ bearer: { [host]: developer } }, null, 4)}\n`,
    },
    {
      id: 'composer-auth',
      title: 'COMPOSER_AUTH environment variable',
      kind: 'ci',
      text: `export COMPOSER_AUTH='${JSON.stringify({ bearer: { [host]: placeholder('ci') } })}'\n`,
    },
    {
      id: 'docker',
      title: 'Docker build secret (never a build argument: it would stay in the image)',
      kind: 'deploy',
      text: [
        '# Dockerfile',
        'RUN --mount=type=secret,id=composer_auth,env=COMPOSER_AUTH composer install --no-dev',
        '',
        '# build',
        `COMPOSER_AUTH='${JSON.stringify({ bearer: { [host]: placeholder('deploy') } })}' \\`,
        '  docker build --secret id=composer_auth,env=COMPOSER_AUTH .',
        '',
      ].join('\n'),
    },
    {
      id: 'github-actions',
      title: 'GitHub Actions (store the token as the secret PACKGATE_TOKEN)',
      kind: 'ci',
      text: [
        '- name: Install dependencies',
        '  env:',
        `    COMPOSER_AUTH: '{"bearer": {"${host}": "\${{ secrets.PACKGATE_TOKEN }}"}}'`,
        '  run: composer install --no-interaction',
        '',
      ].join('\n'),
    },
    {
      id: 'gitlab-ci',
      title: 'GitLab CI (a masked CI/CD variable PACKGATE_TOKEN)',
      kind: 'ci',
      text: [
        'install:',
        '  script:',
        `    - export COMPOSER_AUTH="{\\"bearer\\": {\\"${host}\\": \\"$PACKGATE_TOKEN\\"}}"`,
        '    - composer install --no-interaction',
        '',
      ].join('\n'),
    },
    {
      id: 'forge',
      title: 'Laravel Forge (Site → Packages, or the deploy script)',
      kind: 'deploy',
      text: `composer config --auth bearer.${host} ${placeholder('deploy')}\n`,
    },
    {
      id: 'dependabot',
      title: 'Dependabot (.github/dependabot.yml; secret PACKGATE_TOKEN under Dependabot secrets)',
      kind: 'bot',
      text: [
        'version: 2',
        'registries:',
        '  packgate:',
        '    type: composer-repository',
        `    url: ${origin}`,
        '    username: token',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: GitHub's expression syntax, written as is
        '    password: ${{ secrets.PACKGATE_TOKEN }}',
        'updates:',
        '  - package-ecosystem: composer',
        '    directory: "/"',
        '    registries: [packgate]',
        '    schedule:',
        '      interval: weekly',
        '',
      ].join('\n'),
    },
    {
      id: 'renovate',
      title: 'Renovate (renovate.json; encrypt the token for your repository)',
      kind: 'bot',
      text: `${JSON.stringify(
        {
          hostRules: [{ matchHost: hostname, hostType: 'packagist', username: 'token', password: placeholder('bot') }],
        },
        null,
        2,
      )}\n`,
    },
  ];
}

/**
 * The body of Composer's 401 (features/composer answers it): which host, which credentials it takes, where to get one.
 * Never names or echoes the token that was sent.
 */
export function composerUnauthorizedText(repositoryUrl: string, portalUrl: string): string {
  const host = composerAuthHost(repositoryUrl);
  return [
    `${host} needs a Composer token of your license.`,
    `It accepts: a bearer token (composer config bearer.${host} <token>), HTTP basic with any username and the token as`,
    "password (for update bots), or a short-lived token from a CI job's OIDC identity exchanged at /api/composer/oidc-token.",
    `Get or rotate a token in your license portal: ${portalUrl}`,
  ].join(' ');
}

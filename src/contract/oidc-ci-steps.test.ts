import { describe, expect, it } from 'vitest';
import { githubActionsSteps, gitlabCiSteps } from './oidc-ci-steps.js';

const input = { repositoryUrl: 'https://acme.packgate.example', audience: 'https://acme.packgate.example' };

describe('the CI steps', () => {
  it.each([
    [
      'give GitHub Actions the id-token permission, the audience and the exchange on the seller host',
      githubActionsSteps,
      [
        '  id-token: write',
        'shell: bash',
        '"$ACTIONS_ID_TOKEN_REQUEST_URL&audience=https%3A%2F%2Facme.packgate.example"',
        'https://acme.packgate.example/api/composer/oidc-token',
        'composer config --global bearer.acme.packgate.example "$COMPOSER_TOKEN"',
        'echo "::add-mask::$COMPOSER_TOKEN"',
      ],
    ],
    [
      'give GitLab CI an ID token with the audience, and the same exchange',
      gitlabCiSteps,
      [
        '  id_tokens:\n    PACKGATE_ID_TOKEN:\n      aud: "https://acme.packgate.example"',
        '$PACKGATE_ID_TOKEN',
        'https://acme.packgate.example/api/composer/oidc-token',
        '    - composer install',
      ],
    ],
  ])('%s', (_rule, stepsOf, lines) => {
    const steps = stepsOf(input);
    for (const line of lines) expect(steps).toContain(line);
  });
});

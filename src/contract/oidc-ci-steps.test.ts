import { describe, expect, it } from 'vitest';
import { githubActionsSteps, gitlabCiSteps } from './oidc-ci-steps.js';

const input = { repositoryUrl: 'https://acme.packgate.example', audience: 'https://acme.packgate.example' };

describe('the CI steps', () => {
  it('give GitHub Actions the id-token permission, the audience and the exchange on the seller host', () => {
    const steps = githubActionsSteps(input);
    expect(steps).toContain('  id-token: write');
    expect(steps).toContain('shell: bash');
    expect(steps).toContain('"$ACTIONS_ID_TOKEN_REQUEST_URL&audience=https%3A%2F%2Facme.packgate.example"');
    expect(steps).toContain('https://acme.packgate.example/api/composer/oidc-token');
    expect(steps).toContain('composer config --global bearer.acme.packgate.example "$COMPOSER_TOKEN"');
    expect(steps).toContain('echo "::add-mask::$COMPOSER_TOKEN"');
  });

  it('give GitLab CI an ID token with the audience, and the same exchange', () => {
    const steps = gitlabCiSteps(input);
    expect(steps).toContain('  id_tokens:\n    PACKGATE_ID_TOKEN:\n      aud: "https://acme.packgate.example"');
    expect(steps).toContain('$PACKGATE_ID_TOKEN');
    expect(steps).toContain('https://acme.packgate.example/api/composer/oidc-token');
    expect(steps).toContain('    - composer install');
  });
});

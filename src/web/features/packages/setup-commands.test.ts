import { describe, expect, it } from 'vitest';
import { composerAuthHost, repositoryNameFor, setupGuideSteps } from './setup-commands';

describe('setupGuideSteps', () => {
  it('gives the e-mail commands over plain http, with secure-http off and the port in the bearer host', () => {
    const steps = setupGuideSteps('http://acme.composer.localhost:5000', 'acme', 'acme/widget');
    expect(steps.map((step) => step.title)).toEqual([
      'Add the repository',
      'Set your access token',
      'Require the package',
    ]);
    expect(steps.flatMap((step) => step.commands)).toEqual([
      'composer config repositories.acme composer http://acme.composer.localhost:5000',
      'composer config secure-http false',
      'composer config bearer.acme.composer.localhost:5000 YOUR_TOKEN',
      'composer require acme/widget',
    ]);
  });

  it('leaves secure-http alone over https and names no default port', () => {
    const steps = setupGuideSteps('https://acme.composer.example.com', 'acme', 'acme/widget');
    expect(steps.flatMap((step) => step.commands)).toEqual([
      'composer config repositories.acme composer https://acme.composer.example.com',
      'composer config bearer.acme.composer.example.com YOUR_TOKEN',
      'composer require acme/widget',
    ]);
  });

  it('names the repository entry after the seller, whatever the package’s vendor, and the auth entry after host and port', () => {
    const [first] = setupGuideSteps('https://acme.composer.example.com', 'acme', 'voku/portable-ascii');
    expect(first!.commands[0]).toBe('composer config repositories.acme composer https://acme.composer.example.com');
    expect(repositoryNameFor('acme')).toBe('acme');
    expect(composerAuthHost('https://composer.acme.com:8443')).toBe('composer.acme.com:8443');
  });
});

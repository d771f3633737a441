import { describe, expect, it } from 'vitest';
import { composerRepositoryUrl } from './repository-url';

describe('composerRepositoryUrl', () => {
  it("puts the seller's slug under the Composer domain with the app's scheme and port", () => {
    expect(
      composerRepositoryUrl({ slug: 'acme', composerDomain: 'composer.localhost', publicUrl: 'http://localhost:5000' }),
    ).toBe('http://acme.composer.localhost:5000');
  });

  it('names no port when the app uses the default one', () => {
    expect(
      composerRepositoryUrl({
        slug: 'acme',
        composerDomain: 'composer.packgate.io',
        publicUrl: 'https://packgate.io',
      }),
    ).toBe('https://acme.composer.packgate.io');
  });
});

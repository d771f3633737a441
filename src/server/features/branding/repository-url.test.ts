import { describe, expect, it } from 'vitest';
import { composerAuthHost, repositoryNameFor, repositoryUrlFor, setupCommands } from './repository-url.js';

const contextWith = (publicUrl: string, composerDomain = 'composer.localhost') =>
  ({ config: { publicUrl, composerDomain } }) as Parameters<typeof repositoryUrlFor>[0];

describe('repositoryUrlFor', () => {
  it('puts the seller under COMPOSER_DOMAIN with the scheme and port of PUBLIC_URL', () => {
    expect(repositoryUrlFor(contextWith('http://localhost:5000'), { slug: 'acme' })).toBe(
      'http://acme.composer.localhost:5000',
    );
  });

  it('leaves the port out when PUBLIC_URL has none (or names the scheme default)', () => {
    expect(
      repositoryUrlFor(contextWith('https://packgate.example', 'composer.packgate.example'), { slug: 'acme' }),
    ).toBe('https://acme.composer.packgate.example');
    expect(repositoryUrlFor(contextWith('https://packgate.example:443', 'repo.example'), { slug: 'acme' })).toBe(
      'https://acme.repo.example',
    );
  });

  it('keeps a non-default https port', () => {
    expect(repositoryUrlFor(contextWith('https://packgate.example:8443/app', 'repo.example'), { slug: 'b2' })).toBe(
      'https://b2.repo.example:8443',
    );
  });

  it("prefers the seller's verified custom domain, with PUBLIC_URL's scheme", () => {
    const seller = { slug: 'acme', brandDomain: 'composer.acme.com' };
    expect(repositoryUrlFor(contextWith('https://packgate.example', 'repo.example'), seller)).toBe(
      'https://composer.acme.com',
    );
    expect(repositoryUrlFor(contextWith('http://localhost:5000'), seller)).toBe('http://composer.acme.com:5000');
  });
});

describe('composerAuthHost', () => {
  it('includes the port, as Composer looks bearer tokens up by host:port', () => {
    expect(composerAuthHost('http://acme.composer.localhost:5000')).toBe('acme.composer.localhost:5000');
    expect(composerAuthHost('https://composer.acme.com')).toBe('composer.acme.com');
  });
});

describe('setupCommands', () => {
  it('names the repository after the seller and turns secure-http off for a plain http repository', () => {
    expect(
      setupCommands({
        repositoryUrl: 'http://acme.composer.localhost:5000',
        sellerSlug: 'acme',
        packageName: 'acme/widget',
        token: 'pgc_x',
      }),
    ).toEqual([
      'composer config repositories.acme composer http://acme.composer.localhost:5000',
      'composer config secure-http false',
      'composer config bearer.acme.composer.localhost:5000 pgc_x',
      'composer require acme/widget',
    ]);
  });

  it('leaves secure-http alone over https', () => {
    expect(
      setupCommands({
        repositoryUrl: 'https://composer.acme.com',
        sellerSlug: 'acme-tools',
        packageName: 'acme/widget',
        token: 'pgc_x',
      }),
    ).toEqual([
      'composer config repositories.acme-tools composer https://composer.acme.com',
      'composer config bearer.composer.acme.com pgc_x',
      'composer require acme/widget',
    ]);
  });

  // Issue 36: `repositories.voku` and `repositories.symfony` for two packages of one seller were two entries for
  // one repository URL; named after the seller, the second package's commands rewrite the same entry.
  it('gives two packages of one seller, of different vendors, one repository entry: the seller’s', () => {
    const [voku, symfony] = ['voku/portable-ascii', 'symfony/polyfill-php80'].map((packageName) =>
      setupCommands({ repositoryUrl: 'https://composer.acme.com', sellerSlug: 'acme', packageName, token: 'pgc_x' }),
    );
    expect(voku![0]).toBe('composer config repositories.acme composer https://composer.acme.com');
    expect(symfony![0]).toBe(voku![0]);
    expect(repositoryNameFor('acme')).toBe('acme');
  });
});

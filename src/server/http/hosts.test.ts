import { describe, expect, it } from 'vitest';
import { parseHostHeader } from './host-header.js';
import { isCustomDomainCandidate, resolveHost as resolveParsedHost } from './hosts.js';

const config = { publicUrl: 'http://localhost:5000', composerDomain: 'composer.localhost' };

/** Resolves a Host header as the edge does: parsed first (host-header.ts), then resolved. */
function resolveHost(settings: typeof config, header: string | undefined) {
  return resolveParsedHost(settings, header === undefined ? undefined : parseHostHeader(header));
}

describe('resolveHost', () => {
  it('resolves the app host, whatever the port', () => {
    expect(resolveHost(config, 'localhost:5000')).toEqual({ kind: 'app' });
    expect(resolveHost(config, 'LOCALHOST')).toEqual({ kind: 'app' });
  });

  it("resolves {slug}.COMPOSER_DOMAIN to that seller's repository", () => {
    expect(resolveHost(config, 'acme.composer.localhost:5000')).toEqual({
      kind: 'repository',
      seller: { slug: 'acme' },
      hostname: 'acme.composer.localhost',
    });
    expect(resolveHost(config, 'Acme-Tools.Composer.Localhost.')).toEqual({
      kind: 'repository',
      seller: { slug: 'acme-tools' },
      hostname: 'acme-tools.composer.localhost',
    });
  });

  it('resolves the bare COMPOSER_DOMAIN to a repository where the token decides the seller', () => {
    expect(resolveHost(config, 'composer.localhost:5000')).toEqual({
      kind: 'repository',
      seller: undefined,
      hostname: 'composer.localhost',
    });
  });

  it('treats other hosts, deeper names and malformed labels as the app', () => {
    for (const host of [
      '127.0.0.1:5000',
      '[::1]:5000',
      'example.com',
      'a.b.composer.localhost',
      '-x.composer.localhost',
      '',
    ]) {
      expect(resolveHost(config, host), host).toEqual({ kind: 'app' });
    }
    expect(resolveHost(config, undefined)).toEqual({ kind: 'app' });
  });

  it('follows a configured production domain', () => {
    const production = { publicUrl: 'https://app.packgate.example', composerDomain: 'repo.packgate.example' };
    expect(resolveHost(production, 'app.packgate.example')).toEqual({ kind: 'app' });
    expect(resolveHost(production, 'acme.repo.packgate.example')).toEqual({
      kind: 'repository',
      seller: { slug: 'acme' },
      hostname: 'acme.repo.packgate.example',
    });
  });
});

describe('isCustomDomainCandidate', () => {
  it('looks up names with a dot that are neither the app nor under COMPOSER_DOMAIN', () => {
    expect(isCustomDomainCandidate(config, 'composer.acme.com')).toBe(true);
    for (const hostname of [
      '',
      'localhost',
      'composer.localhost',
      'acme.composer.localhost',
      'a.b.composer.localhost',
    ]) {
      expect(isCustomDomainCandidate(config, hostname), hostname).toBe(false);
    }
  });

  it('never looks up IP addresses', () => {
    for (const hostname of ['127.0.0.1', '[::1]', '10.0.0.1']) {
      expect(isCustomDomainCandidate(config, hostname), hostname).toBe(false);
    }
  });
});

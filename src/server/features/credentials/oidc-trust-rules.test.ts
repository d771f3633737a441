import { describe, expect, it } from 'vitest';
import { isSubjectRuleValid, subjectMatches } from '../../../contract/oidc-trusts.js';
import { discoveryUrl, parseIssuer, sameOriginKeysUrl } from './oidc-trust-rules.js';

describe('an issuer URL', () => {
  it('keeps GitHub Actions and gitlab.com as their tokens name them', () => {
    expect(parseIssuer('https://token.actions.githubusercontent.com', { allowHttp: false })).toBe(
      'https://token.actions.githubusercontent.com',
    );
    expect(parseIssuer('https://gitlab.com/', { allowHttp: false })).toBe('https://gitlab.com');
    expect(parseIssuer('https://git.example.com/gitlab', { allowHttp: false })).toBe('https://git.example.com/gitlab');
  });

  it('refuses http unless allowed, and credentials, queries and fragments always', () => {
    expect(() => parseIssuer('http://gitlab.example.com', { allowHttp: false })).toThrow(/https:\/\//);
    expect(parseIssuer('http://127.0.0.1:8080', { allowHttp: true })).toBe('http://127.0.0.1:8080');
    for (const bad of [
      'https://user:pw@gitlab.com',
      'https://gitlab.com?x=1',
      'https://gitlab.com#k',
      'gitlab.com',
      'ftp://x',
    ]) {
      expect(() => parseIssuer(bad, { allowHttp: true }), bad).toThrow(/https:\/\//);
    }
  });

  it('discovers keys under the issuer, and only on its own origin', () => {
    expect(discoveryUrl('https://gitlab.com').href).toBe('https://gitlab.com/.well-known/openid-configuration');
    expect(discoveryUrl('https://git.example.com/gitlab/').href).toBe(
      'https://git.example.com/gitlab/.well-known/openid-configuration',
    );
    expect(sameOriginKeysUrl('https://gitlab.com', 'https://gitlab.com/oauth/discovery/keys')?.href).toBe(
      'https://gitlab.com/oauth/discovery/keys',
    );
    expect(sameOriginKeysUrl('https://gitlab.com', 'https://keys.elsewhere.example/jwks')).toBeUndefined();
    expect(sameOriginKeysUrl('https://gitlab.com', 'http://gitlab.com/keys')).toBeUndefined();
    expect(sameOriginKeysUrl('https://gitlab.com', 42)).toBeUndefined();
  });
});

describe('a subject rule', () => {
  it('matches exactly, or by prefix when it ends in * after : or /', () => {
    expect(subjectMatches('repo:acme/shop:ref:refs/heads/main', 'repo:acme/shop:ref:refs/heads/main')).toBe(true);
    expect(subjectMatches('repo:acme/shop:ref:refs/heads/main', 'repo:acme/shop:ref:refs/heads/main2')).toBe(false);
    expect(subjectMatches('repo:acme/shop:*', 'repo:acme/shop:environment:prod')).toBe(true);
    expect(subjectMatches('repo:acme/shop:*', 'repo:acme/shop-fork:ref:refs/heads/main')).toBe(false);
  });

  it('allows one * only at the end, right after a separator', () => {
    expect(isSubjectRuleValid('repo:acme/shop:*')).toBe(true);
    expect(isSubjectRuleValid('project_path:acme/*')).toBe(true);
    expect(isSubjectRuleValid('*')).toBe(false);
    expect(isSubjectRuleValid('repo:acme/shop*')).toBe(false);
    expect(isSubjectRuleValid('repo:*:ref:refs/heads/main')).toBe(false);
    expect(isSubjectRuleValid('repo:acme/*:*')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { composerUnauthorizedText, credentialSnippets } from './credential-snippets.js';

describe('credential snippets', () => {
  const snippets = credentialSnippets('https://composer.acme.com');

  it('gives auth.json, COMPOSER_AUTH, Docker, GitHub Actions, GitLab CI, Forge, Dependabot and Renovate', () => {
    expect(snippets.map((snippet) => snippet.id)).toEqual([
      'auth-json',
      'composer-auth',
      'docker',
      'github-actions',
      'gitlab-ci',
      'forge',
      'dependabot',
      'renovate',
    ]);
  });

  it('names the configured host in each and a placeholder of the right kind, never a real token', () => {
    for (const snippet of snippets) {
      expect(snippet.text, snippet.id).toContain('composer.acme.com');
      expect(snippet.text, snippet.id).not.toMatch(/pgc_/);
    }
    expect(JSON.parse(snippets[0]!.text)).toEqual({ bearer: { 'composer.acme.com': 'YOUR_DEVELOPER_TOKEN' } });
    expect(snippets.find((snippet) => snippet.id === 'dependabot')!.text).toContain('type: composer-repository');
    expect(snippets.find((snippet) => snippet.id === 'renovate')!.text).toContain('"YOUR_BOT_TOKEN"');
    expect(snippets.find((snippet) => snippet.id === 'docker')!.text).toContain('--secret id=composer_auth');
  });

  it('keeps the port in the auth key, as Composer looks it up', () => {
    const [authJson] = credentialSnippets('http://acme.composer.localhost:5000', 'pgc_delivered');
    expect(JSON.parse(authJson!.text)).toEqual({ bearer: { 'acme.composer.localhost:5000': 'pgc_delivered' } });
  });

  it('says in the 401 which host, which credentials and where to get one', () => {
    const text = composerUnauthorizedText('https://composer.acme.com', 'https://composer.acme.com/portal');
    expect(text).toContain('composer.acme.com needs a Composer token');
    expect(text).toContain('bearer');
    expect(text).toContain('HTTP basic');
    expect(text).toContain('OIDC');
    expect(text).toContain('https://composer.acme.com/portal');
  });
});

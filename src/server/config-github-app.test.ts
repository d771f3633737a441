import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

// GITHUB_APP_* (issue 30): optional, all three of ID, key and slug together, the key inline or in a file.

const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs1', format: 'pem' })
  .toString();
const dir = mkdtempSync(path.join(tmpdir(), 'packgate-github-app-'));
const keyFile = path.join(dir, 'app.pem');
writeFileSync(keyFile, pem);

const load = (env: Record<string, string>) =>
  loadConfig({ DATA_DIR: '/tmp/packgate-config-test', SECRET_KEY: 'x'.repeat(32), ...env });

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('GITHUB_APP_*', () => {
  it('leaves the App off when none is set', () => {
    expect(load({}).githubApp).toBeUndefined();
  });

  it('reads the key inline (with \\n for line breaks) or from a file, on github.com or GHES', () => {
    const inline = load({
      GITHUB_APP_ID: '12345',
      GITHUB_APP_PRIVATE_KEY: pem.replace(/\n/g, '\\n'),
      GITHUB_APP_SLUG: 'packgate',
      GITHUB_APP_WEBHOOK_SECRET: 'hook-secret',
    }).githubApp;
    expect(inline).toMatchObject({ appId: '12345', slug: 'packgate', webhookSecret: 'hook-secret' });
    expect(inline?.privateKey.trim()).toBe(pem.trim());
    expect(inline?.apiUrl).toBe('https://api.github.com');
    const fromFile = load({
      GITHUB_APP_ID: '12345',
      GITHUB_APP_PRIVATE_KEY_FILE: keyFile,
      GITHUB_APP_SLUG: 'packgate',
      GITHUB_WEB_URL: 'https://ghe.example.com/',
      GITHUB_API_URL: 'https://ghe.example.com/api/v3',
    }).githubApp;
    expect(fromFile).toMatchObject({ webUrl: 'https://ghe.example.com', apiUrl: 'https://ghe.example.com/api/v3' });
    expect(fromFile?.privateKey.trim()).toBe(pem.trim());
  });

  it('refuses a partial App, two keys, a missing key file and a key that is not PEM', () => {
    const partial: Record<string, string>[] = [
      { GITHUB_APP_ID: '12345' },
      { GITHUB_APP_ID: '12345', GITHUB_APP_SLUG: 'packgate' },
      {
        GITHUB_APP_ID: '12345',
        GITHUB_APP_SLUG: 'packgate',
        GITHUB_APP_PRIVATE_KEY: pem,
        GITHUB_APP_PRIVATE_KEY_FILE: keyFile,
      },
      {
        GITHUB_APP_ID: '12345',
        GITHUB_APP_SLUG: 'packgate',
        GITHUB_APP_PRIVATE_KEY_FILE: path.join(dir, 'missing.pem'),
      },
      { GITHUB_APP_ID: '12345', GITHUB_APP_SLUG: 'packgate', GITHUB_APP_PRIVATE_KEY: 'not a key' },
      { GITHUB_APP_ID: 'my-app', GITHUB_APP_SLUG: 'packgate', GITHUB_APP_PRIVATE_KEY: pem },
    ];
    for (const env of partial) {
      expect(() => load(env), JSON.stringify(Object.keys(env))).toThrow(ConfigError);
    }
  });
});

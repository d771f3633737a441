import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, SETTING_NAMES } from './config.js';

const root = path.resolve(import.meta.dirname, '../..');
const lines = readFileSync(path.join(root, '.env.example'), 'utf8').split('\n');

/** `# NAME=value` lines: every setting, commented out, with its default (empty when it has none). */
const settings = lines.flatMap((line, index) => {
  if (!line.startsWith('# ')) return [];
  const assignment = line.slice(2);
  const equals = assignment.indexOf('=');
  const name = assignment.slice(0, equals);
  if (equals <= 0 || !/^[A-Z][A-Z0-9_]*$/.test(name)) return [];
  return [{ name, value: assignment.slice(equals + 1), index }];
});

describe('.env.example', () => {
  it('lists every setting config.ts reads, and nothing else', () => {
    expect(settings.map((setting) => setting.name).sort()).toEqual([...SETTING_NAMES].sort());
  });

  it('gives each setting a line that says what it means', () => {
    for (const setting of settings) {
      // A pair (GITHUB_CLIENT_ID and _SECRET) shares one explanation above the first of the two.
      const explanation = lines
        .slice(0, setting.index)
        .reverse()
        .find((line) => !settings.some((other) => lines[other.index] === line));
      expect(explanation, setting.name).toMatch(/^# \S/);
    }
  });

  it('shows the defaults config.ts applies', () => {
    const written = Object.fromEntries(
      settings.filter((setting) => setting.value !== '').map((setting) => [setting.name, setting.value]),
    );
    const secretKey = 'k'.repeat(32);
    expect(loadConfig({ ...written, SECRET_KEY: secretKey })).toEqual(loadConfig({ SECRET_KEY: secretKey }));
  });

  it('documents every setting in the README configuration table', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const documented = SETTING_NAMES.filter((name) => readme.includes(`\`${name}\``));
    expect(documented).toEqual(SETTING_NAMES);
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The README's test instructions are one command on a fresh Debian machine, and CI runs exactly that command.

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
/** A script's commands: its lines without comments, blanks and shell plumbing. */
const commandsOf = (script: string) =>
  script
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

describe('the test instructions', () => {
  it('are one command in the README', () => {
    const readme = read('README.md');
    const section = readme.slice(
      readme.indexOf('## Test it'),
      readme.indexOf('\n## ', readme.indexOf('## Test it') + 1),
    );
    const block = section.slice(section.indexOf('```sh\n') + 6, section.indexOf('\n```', section.indexOf('```sh\n')));
    expect(commandsOf(block)).toEqual(['bash scripts/test-fresh.sh']);
  });

  it('install the system packages and the locked dependencies, then typecheck, lint and test', () => {
    const commands = commandsOf(read('scripts/test-fresh.sh'));
    const order = [
      'bash scripts/install-system-deps.sh',
      'npm ci --no-audit --no-fund',
      'npm run typecheck & typecheck=$!',
      'npm run lint & lint=$!',
      'npm test',
    ].map((command) => commands.indexOf(command));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('are what CI runs', () => {
    const commands = commandsOf(read('.ci/run'));
    expect(commands.at(-1)).toBe('bash scripts/test-fresh.sh');
    // Nothing else installs or tests beside it.
    expect(commands.filter((command) => /\bnpm\b|install-system-deps/.test(command))).toEqual([]);
  });
});

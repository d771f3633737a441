import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { classifyStderr, runGit, summariseStderr } from './git-command.js';

describe('summariseStderr', () => {
  it('removes tokens, URL user info and authorization headers', () => {
    const stderr = [
      "fatal: unable to access 'https://x-access-token:ghp_secret123@github.com/acme/widget.git/': 403",
      '> Authorization: Basic eC1hY2Nlc3MtdG9rZW46Z2hwX3NlY3JldDEyMw==',
      'error: token ghp_secret123 rejected',
    ].join('\n');

    const summary = summariseStderr(stderr, ['ghp_secret123']);

    expect(summary).not.toContain('ghp_secret123');
    expect(summary).not.toContain('eC1hY2Nlc3M');
    expect(summary).toContain('https://***@github.com/acme/widget.git/');
  });

  it('redacts user info behind a scheme that follows digits, and reads a long run of scheme letters at once', () => {
    // Every start inside a 100,000-letter run used to rescan the run: quadratic, seconds of a blocked event loop.
    const stderr = [`${'a'.repeat(100_000)}@a:/@`, "fatal: unable to access '1https://user:pw@host/x'"].join('\n');

    expect(summariseStderr(stderr)).toBe("fatal: unable to access '1https://***@host/x'");
  });

  it("keeps git's verdicts rather than the generic closing lines, and drops hints", () => {
    const stderr = [
      "fatal: detected dubious ownership in repository at '/srv/repos/widget.git'",
      'hint: To add an exception for this directory, call:',
      'fatal: Could not read from remote repository.',
      '',
      'Please make sure you have the correct access rights',
      'and the repository exists.',
    ].join('\n');

    expect(summariseStderr(stderr)).toBe(
      "fatal: detected dubious ownership in repository at '/srv/repos/widget.git' / fatal: Could not read from remote repository.",
    );
  });

  it('caps the summary length', () => {
    expect(summariseStderr(`fatal: ${'x'.repeat(2000)}`).length).toBeLessThanOrEqual(400);
  });
});

describe('classifyStderr', () => {
  it.each([
    ["fatal: could not read Username for 'https://github.com': terminal prompts disabled", 'AUTH_FAILED'],
    ["fatal: Authentication failed for 'https://github.com/acme/widget.git/'", 'AUTH_FAILED'],
    ["fatal: unable to access 'https://ghe.test/a.git/': The requested URL returned error: 403", 'AUTH_FAILED'],
    ['remote: Repository not found.', 'NOT_FOUND'],
    ["fatal: '/srv/repos/missing' does not appear to be a git repository", 'NOT_FOUND'],
    ["fatal: unable to access 'https://nohost.invalid/': Could not resolve host: nohost.invalid", 'UNREACHABLE'],
    ['fatal: bad object deadbeef', 'FAILED'],
  ])('%s → %s', (stderr, code) => {
    expect(classifyStderr(stderr)).toBe(code);
  });
});

describe('runGit', () => {
  it('ignores the environment it was started in (no GIT_DIR, no global config)', async () => {
    const previous = process.env.GIT_DIR;
    process.env.GIT_DIR = '/nonexistent';
    try {
      const output = await runGit(['config', '--list', '--show-scope']);
      expect(output.toString()).not.toMatch(/^global|^system/m);
      expect(output.toString()).toContain('credential.helper=');
    } finally {
      if (previous === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = previous;
    }
  });

  it('kills git and reports TIMEOUT when it runs past its time', async () => {
    // A server that accepts the connection and never answers keeps `git ls-remote` waiting.
    const server = createServer(() => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const started = Date.now();
      await expect(runGit(['ls-remote', `http://127.0.0.1:${port}/x.git`], { timeoutMs: 300 })).rejects.toMatchObject({
        code: 'TIMEOUT',
      });
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { hostKeyFingerprint, parseLsRemote } from '../../adapters/git/git-remote.js';
import { AppError } from '../../http/errors.js';
import { parseRepositoryUrl } from './git-packages.service.js';

// What a seller may type as a git server's repository URL (issue 30 item 4), and how the answers of git are read.

describe('parseRepositoryUrl', () => {
  it('takes https and ssh URLs, and writes git@host:path as the ssh URL it means', () => {
    expect(parseRepositoryUrl('https://git.example.com/acme/widget.git', false).href).toBe(
      'https://git.example.com/acme/widget.git',
    );
    expect(parseRepositoryUrl('git@git.example.com:acme/widget.git', false).href).toBe(
      'ssh://git@git.example.com/acme/widget.git',
    );
    expect(parseRepositoryUrl('ssh://git@git.example.com:2222/acme/widget.git', false).port).toBe('2222');
  });

  it('refuses credentials in the URL, plain http unless private networks are allowed, and ssh without a user', () => {
    for (const url of [
      'https://user:secret@git.example.com/acme/widget.git',
      'http://git.example.com/acme/widget.git',
      'ssh://git.example.com/acme/widget.git',
      'file:///etc/passwd',
      'ext::sh -c touch% /tmp/pwned',
      'https://git.example.com/',
      `https://git.example.com/${'/'.repeat(50_000)}`,
    ]) {
      expect(() => parseRepositoryUrl(url, false), url).toThrow(AppError);
    }
    expect(parseRepositoryUrl('http://127.0.0.1:8080/acme/widget.git', true).protocol).toBe('http:');
  });
});

describe('reading git', () => {
  it('reads ls-remote: HEAD’s branch, branches and tags, annotated tags peeled', () => {
    const output = [
      'ref: refs/heads/main\tHEAD',
      `${'a'.repeat(40)}\tHEAD`,
      `${'a'.repeat(40)}\trefs/heads/main`,
      `${'b'.repeat(40)}\trefs/tags/v1.0.0`,
      `${'c'.repeat(40)}\trefs/tags/v1.0.0^{}`,
      `${'d'.repeat(40)}\trefs/pull/1/head`,
      '',
    ].join('\n');
    const references = parseLsRemote(output);
    expect(references.defaultBranch).toBe('main');
    expect([...references.refs]).toEqual([
      ['refs/heads/main', 'a'.repeat(40)],
      ['refs/tags/v1.0.0', 'c'.repeat(40)],
    ]);
  });

  it('prints a host key fingerprint as ssh-keygen does', () => {
    const line = '[127.0.0.1]:2222 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGWk//tO453d9sJYEUs9XMbONaKLeZFRRBdQCXhzHNXT';
    expect(hostKeyFingerprint(line)).toBe('SHA256:xJ8r6rvA9J/equw7wdVjg2mGkGBQqiUIfE4XtJnkGvI');
  });
});

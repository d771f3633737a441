import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeDns } from '../../../../test/fakes/dns.js';
import { createPackageRepository } from '../../../../test/support/git-fixtures.js';
import { startGitHttpServer } from '../../../../test/support/git-http-server.js';
import { gitServersAroundTests } from '../../../../test/support/git-servers.js';
import { generateDeployKey } from '../git/deploy-key.js';
import { GitError } from '../git/git-command.js';
import { syncMirror } from '../git/git-mirror.js';
import { hostKeyFingerprint, pinSshHostKey } from '../git/git-remote.js';
import { listReferences } from '../git/git-repository.js';
import { PrivateAddressError } from '../git/remote-address.js';
import { createAddressResolver } from '../http-delivery/public-address.js';
import { GitServerCodeHost } from './git-server-code-host.js';

// Any git server by URL against real servers on loopback: git http-backend behind basic auth, and OpenSSH's sshd
// with a generated deploy key and a pinned host key.

const credentials = { username: 'ci-reader', password: 'correct horse battery staple' };
const servers = gitServersAroundTests('packgate-git-server-', credentials, async (repos) => {
  await createPackageRepository(path.join(repos, 'acme', 'widget.git'), {
    name: 'acme/widget',
    tags: ['v1.0.0', { name: 'v1.1.0', annotated: true }],
    bare: true,
  });
});
const loopbackHost = new GitServerCodeHost({ resolver: createAddressResolver(undefined), allowPrivateNetworks: true });

describe('any git server over HTTPS with a user name and password', () => {
  it('reads the default branch and composer.json, and mirrors every tag with the password kept out of errors', async () => {
    const user = { id: 'seller', ...credentials };
    const repository = await loopbackHost.getRepository(user, `${servers.http.url}/acme/widget.git`);
    expect(repository).toMatchObject({ fullName: `127.0.0.1:${servers.http.port}/acme/widget`, defaultBranch: 'main' });
    const composerJson = await loopbackHost.readDefaultBranchFile(user, repository, 'composer.json');
    expect(JSON.parse(composerJson!).name).toBe('acme/widget');

    const mirrorDir = path.join(servers.workspace, 'mirrors', 'https.git');
    await syncMirror({ ...(await loopbackHost.cloneSource(user, repository)), mirrorDir });
    const refs = (await listReferences(mirrorDir)).map((reference) => reference.ref).sort();
    expect(refs).toEqual(['refs/heads/main', 'refs/tags/v1.0.0', 'refs/tags/v1.1.0']);
  });

  it('refuses a wrong password as an authentication failure that does not show it', async () => {
    const user = { id: 'seller', username: credentials.username, password: 'wrong-password-123' };
    const error = await loopbackHost
      .getRepository(user, `${servers.http.url}/acme/widget.git`)
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(GitError);
    expect(error.code).toBe('AUTH_FAILED');
    expect(String(error.message)).not.toContain('wrong-password-123');
  });

  it('follows no redirect, so a server cannot send git to another address', async () => {
    const before = servers.http.requests;
    const redirecting = await startGitHttpServer(servers.workspace, {
      redirectTo: `${servers.http.url}/acme/widget.git/info/refs`,
    });
    try {
      const error = await loopbackHost
        .getRepository({ id: 'seller', ...credentials }, `${redirecting.url}/acme/widget.git`)
        .catch((caught) => caught);
      expect(error).toBeInstanceOf(GitError);
      expect(redirecting.requests).toBeGreaterThan(0);
      expect(servers.http.requests).toBe(before);
    } finally {
      await redirecting.close();
    }
  });

  it('stops reading a references list that never ends', async () => {
    const hostile = await startGitHttpServer(servers.workspace, { hugeRefs: 400_000 });
    try {
      const error = await loopbackHost
        .getRepository({ id: 'seller' }, `${hostile.url}/acme/widget.git`)
        .catch((caught) => caught);
      expect(error).toBeInstanceOf(GitError);
      expect(error.code).toBe('OUTPUT_TOO_LARGE');
    } finally {
      await hostile.close();
    }
  });
});

describe('the private-network guard', () => {
  it('refuses a name that resolves to a private address, and a loopback address written out', async () => {
    const dns = await startFakeDns();
    try {
      dns.records.set('git.internal.test', { a: '10.1.2.3' });
      dns.records.set('git.public.test', { a: '93.184.216.34' });
      const guarded = new GitServerCodeHost({
        resolver: createAddressResolver([dns.server]),
        allowPrivateNetworks: false,
      });
      for (const url of ['https://git.internal.test/acme/widget.git', `${servers.http.url}/acme/widget.git`]) {
        const error = await guarded.getRepository({ id: 'seller' }, url).catch((caught) => caught);
        expect(error).toBeInstanceOf(PrivateAddressError);
      }
      const access = await guarded.accessFor({ id: 'seller' }, new URL('https://git.public.test/acme/widget.git'));
      expect(access.address).toBe('93.184.216.34');
    } finally {
      await dns.close();
    }
  });
});

describe('any git server over SSH with a deploy key', () => {
  it('pins the host key on first use, reads with the key once it is authorised, and refuses a changed host key', async () => {
    const key = generateDeployKey('packgate acme/widget');
    const url = servers.ssh.urlFor('acme/widget.git');
    const knownHosts = await pinSshHostKey(url, {
      credentials: { kind: 'ssh', privateKey: key.privateKey, knownHosts: null },
    });
    expect(hostKeyFingerprint(knownHosts)).toBe(servers.ssh.hostKeyFingerprint);
    const user = { id: 'seller', sshPrivateKey: key.privateKey, sshKnownHosts: knownHosts };

    const refused = await loopbackHost.getRepository(user, url).catch((caught) => caught);
    expect(refused.code).toBe('AUTH_FAILED');

    await servers.ssh.authorize(key.publicKey);
    const repository = await loopbackHost.getRepository(user, url);
    expect(repository.defaultBranch).toBe('main');
    const mirrorDir = path.join(servers.workspace, 'mirrors', 'ssh.git');
    await syncMirror({ ...(await loopbackHost.cloneSource(user, repository)), mirrorDir });
    expect((await listReferences(mirrorDir)).map((reference) => reference.name).sort()).toEqual([
      'main',
      'v1.0.0',
      'v1.1.0',
    ]);

    await servers.ssh.replaceHostKey();
    const changed = await loopbackHost.getRepository(user, url).catch((caught) => caught);
    expect(changed).toBeInstanceOf(GitError);
    expect(changed.code).toBe('HOST_KEY_MISMATCH');
  });
});

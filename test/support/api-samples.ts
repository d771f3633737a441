import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import type { CreatedApiToken } from '../../src/contract/developer.js';
import { type FakeBitbucket, startFakeBitbucket } from '../fakes/bitbucket.js';
import { type FakeGitlab, startFakeGitlab } from '../fakes/gitlab.js';
import { createPackageRepository } from './git-fixtures.js';
import { addSyncedPackage, giveTrial } from './packages.js';
import { type SignedIn, signInSeller } from './sessions.js';
import { startTestApp, type TestApp } from './test-app.js';

// What the API v1 samples (the interactive reference at /api/docs, the /api-docs page) are pasted against, and the
// shell they are pasted into: the seller acme on a trial with the synced package acme/tools, the repository
// acme/widget on the embedded code host for a sample to add, and the developer's own webhook receiver on loopback,
// which answers 200 to every delivery (the app allows loopback webhooks here); a fake GitLab and a fake Bitbucket
// Cloud on loopback with an access token each, for the samples that connect them.

const execFileAsync = promisify(execFile);

export type SampleShop = {
  app: TestApp;
  seller: SignedIn;
  /** The id of the synced package acme/tools. */
  toolsId: string;
  /** Where the developer's webhook receiver listens. */
  receiverUrl: string;
  /** A new API token with every permission: API v1 allows a token 30 requests a minute. */
  newToken(name: string): Promise<string>;
  /** The fake code hosts the connect samples reach, with a token each accepts (for the acme project/workspace). */
  codeHosts: { gitlabUrl: string; gitlabToken: string; bitbucketToken: string };
  close(): Promise<void>;
};

export async function startSampleShop(): Promise<SampleShop> {
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200).end('ok'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/packgate-webhooks`;
  const closeReceiver = () => new Promise((resolve) => receiver.close(resolve));
  let app: TestApp | undefined;
  let gitlab: FakeGitlab | undefined;
  let bitbucket: FakeBitbucket | undefined;
  const closeFakes = async () => {
    await gitlab?.close();
    await bitbucket?.close();
  };
  try {
    gitlab = await startFakeGitlab();
    bitbucket = await startFakeBitbucket();
    const codeHostEnv = { ...gitlab.env(), ...bitbucket.env(), CODE_HOST_ALLOW_PRIVATE_NETWORKS: 'true' };
    app = await startTestApp({ env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', ...codeHostEnv } });
    const gitlabProject = gitlab.addProject({ path: 'acme/widget', members: [] });
    bitbucket.addRepository({ workspace: 'acme', slug: 'widget' });
    const codeHosts = {
      gitlabUrl: gitlab.url,
      gitlabToken: gitlab.issueProjectAccessToken(gitlabProject),
      bitbucketToken: bitbucket.issueAccessToken({ workspace: 'acme' }),
    };
    await createPackageRepository(path.join(app.ctx.config.gitReposDir, 'acme', 'widget.git'), {
      name: 'acme/widget',
      tags: ['v1.0.0'],
      bare: true,
    });
    const seller = await signInSeller(app, { slug: 'acme' });
    await giveTrial(app, seller.user.id);
    const toolsId = await addSyncedPackage(app, seller, 'acme/tools');
    const newToken = async (name: string) => {
      const issued = await seller.client.post('/api/developer/tokens', { name, permissions: ['*'] });
      if (issued.status !== 201) throw new Error(`creating the token ${name} answered ${issued.status}`);
      return ((await issued.json()) as CreatedApiToken).token;
    };
    const started = app;
    const close = async () => {
      await started.close();
      await closeReceiver();
      await closeFakes();
    };
    return { app, seller, toolsId, receiverUrl, newToken, codeHosts, close };
  } catch (error) {
    await app?.close();
    await closeReceiver();
    await closeFakes();
    throw error;
  }
}

/**
 * Runs a pasted command with sh, as a developer's terminal would, in `cwd` (where a sample that saves a file leaves
 * it); its standard output. Throws if it fails.
 */
export async function runInShell(command: string, cwd?: string): Promise<string> {
  const { stdout } = await execFileAsync('sh', ['-c', command], { timeout: 30_000, cwd });
  return stdout;
}

import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createTempDir, removeTempDir } from './git-fixtures.js';
import { type GitHttpServerOptions, startGitHttpServer, type TestGitHttpServer } from './git-http-server.js';
import { type SshGitServer, startSshGitServer } from './ssh-git-server.js';

// Any git server by URL (issue 30 item 4) is tested against real servers on loopback: git http-backend behind basic
// auth and OpenSSH's sshd, both serving one folder of repositories.

/** The workspace (its `repos` folder is what both servers serve) and the two servers. */
export type LoopbackGitServers = { workspace: string; http: TestGitHttpServer; ssh: SshGitServer };

/**
 * Before the tests of the file (or of the describe block it is called in): a temporary workspace named after
 * `prefix`, the repositories `createRepositories` writes into its `repos` folder, and that folder served over HTTP with
 * `credentials` and over SSH. After them: both servers stopped and the workspace removed. The fields are filled in
 * when the tests run, so a test reads them from the returned object, not at the file's top.
 */
export function gitServersAroundTests(
  prefix: string,
  credentials: NonNullable<GitHttpServerOptions['credentials']>,
  createRepositories: (reposDir: string) => Promise<void>,
): LoopbackGitServers {
  const servers = {} as LoopbackGitServers;
  beforeAll(async () => {
    servers.workspace = await createTempDir(prefix);
    const reposDir = path.join(servers.workspace, 'repos');
    await createRepositories(reposDir);
    servers.http = await startGitHttpServer(reposDir, { credentials });
    servers.ssh = await startSshGitServer(reposDir);
  });
  afterAll(async () => {
    await servers.http?.close();
    await servers.ssh?.close();
    if (servers.workspace) await removeTempDir(servers.workspace);
  });
  return servers;
}

import { execFile } from 'node:child_process';
import type { Server, ServerResponse } from 'node:http';
import { promisify } from 'node:util';

// What the fakes of the code hosts and Stripe share beyond reading a request (read-body.ts): a JSON answer, a file of
// a repository, and closing the server at the end of a test.

const execFileAsync = promisify(execFile);

/** Answers `body` as JSON with `status`. */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Closes the fake's server, dropping its kept-alive connections first so that closing does not wait for them. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.closeAllConnections();
    server.close((error) => (error ? reject(error) : resolve()));
  });
}

/** The text of `filePath` at `ref` in the repository `gitDir` (as a code host's file API serves it), undefined if none. */
export async function readGitFile(gitDir: string, ref: string, filePath: string): Promise<string | undefined> {
  try {
    const { stdout } = await execFileAsync('git', ['-C', gitDir, 'show', `${ref}:${filePath}`], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    });
    return stdout;
  } catch {
    return undefined;
  }
}

import { createServer, type ServerResponse } from 'node:http';
import { runGitHttpBackend } from './git-fixtures.js';

// A git server over HTTP for tests of any git server (issue 30 item 4): `git http-backend` behind a node HTTP server
// on loopback with basic auth, serving the repositories under a folder, plus the hostile servers Packgate must
// refuse: one that redirects elsewhere, and one whose references list never seems to end.

export type TestGitHttpServer = {
  /** `http://127.0.0.1:{port}`; a repository `acme/widget.git` under the root is at `${url}/acme/widget.git`. */
  url: string;
  port: number;
  /** How many requests arrived (any path). */
  requests: number;
  close(): Promise<void>;
};

export type GitHttpServerOptions = {
  /** Requests without this basic auth get 401. */
  credentials?: { username: string; password: string };
  /** Answer every request with a 302 to this URL instead. */
  redirectTo?: string;
  /** Advertise this many tags instead of serving a repository (a hostile server's endless references). */
  hugeRefs?: number;
};

const ZERO_ID = '1'.repeat(40);

function pktLine(text: string): string {
  return `${(text.length + 4).toString(16).padStart(4, '0')}${text}`;
}

/** A protocol-v0 upload-pack advertisement of `count` tags, written as the client reads (back-pressure kept). */
function advertiseHugeRefs(response: ServerResponse, count: number): void {
  response.writeHead(200, {
    'content-type': 'application/x-git-upload-pack-advertisement',
    'cache-control': 'no-cache',
  });
  response.write(`${pktLine('# service=git-upload-pack\n')}0000`);
  response.write(pktLine(`${ZERO_ID} HEAD\0multi_ack side-band-64k ofs-delta\n`));
  let next = 0;
  const writeMore = () => {
    while (next < count && !response.destroyed) {
      const lines: string[] = [];
      for (let index = 0; index < 1000 && next < count; index++, next++) {
        lines.push(pktLine(`${ZERO_ID} refs/tags/v0.0.${next}-${'x'.repeat(40)}\n`));
      }
      if (!response.write(lines.join(''))) {
        response.once('drain', writeMore);
        return;
      }
    }
    if (!response.destroyed) response.end('0000');
  };
  writeMore();
}

export async function startGitHttpServer(
  rootDir: string,
  options: GitHttpServerOptions = {},
): Promise<TestGitHttpServer> {
  const expected = options.credentials
    ? `Basic ${Buffer.from(`${options.credentials.username}:${options.credentials.password}`).toString('base64')}`
    : undefined;
  const state = { requests: 0 };
  const server = createServer((request, response) => {
    state.requests++;
    if (options.redirectTo) {
      response.writeHead(302, { location: options.redirectTo }).end();
      return;
    }
    if (expected && request.headers.authorization !== expected) {
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end('Unauthorized');
      return;
    }
    if (options.hugeRefs !== undefined) {
      advertiseHugeRefs(response, options.hugeRefs);
      return;
    }
    const url = new URL(request.url ?? '/', 'http://localhost');
    runGitHttpBackend(request, response, { projectRoot: rootDir, pathInfo: decodeURIComponent(url.pathname) });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

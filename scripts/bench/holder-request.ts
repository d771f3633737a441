import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';

// A holder's request to a repository host through 127.0.0.1:port. node:http rather than fetch(), which may not set
// Host, and Host names the repository.

export type HolderAnswer = { status: number; headers: IncomingHttpHeaders; body: Buffer };

/** Sends a holder's GET for `urlPath` on the repository host `host`; `read` settles it from the response. */
function holderGet<T>(
  port: number,
  host: string,
  urlPath: string,
  token: string,
  read: (response: IncomingMessage, settle: (value: T) => void) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, path: urlPath, headers: { host, authorization: `Bearer ${token}` } },
      (response) => read(response, resolve),
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The answer to a holder's request, with its whole body. */
export function holderRequest(port: number, host: string, urlPath: string, token: string): Promise<HolderAnswer> {
  return holderGet(port, host, urlPath, token, (response, settle) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () =>
      settle({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
    );
  });
}

/** The status of a holder's request, the body read and dropped. */
export function holderRequestStatus(port: number, host: string, urlPath: string, token: string): Promise<number> {
  return holderGet(port, host, urlPath, token, (response, settle) => {
    response.resume();
    response.on('end', () => settle(response.statusCode ?? 0));
  });
}

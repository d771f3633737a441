import { request as httpRequest } from 'node:http';

/**
 * The status of a holder's request for `urlPath` on the repository host `host`, through 127.0.0.1:`port`, the body
 * read and dropped. node:http rather than fetch(), which may not set Host, and Host names the repository.
 */
export function holderRequestStatus(port: number, host: string, urlPath: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, path: urlPath, headers: { host, authorization: `Bearer ${token}` } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

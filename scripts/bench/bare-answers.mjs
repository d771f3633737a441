import { randomUUID } from 'node:crypto';

// The bare node:http server's answers (bench/bare-node.mjs runs them in a process of its own; bench/composer-doors.ts
// also in Packgate's process, the ceiling of that process): each URL path of `files` answered with its bytes and the
// headers a JSON answer needs, in one writeHead; `/as-answered<path>` the same bytes with the headers Packgate
// answered them with (`answerHeaders`: path → name → value), a fresh request id and the length, as the warm door
// writes them; such a request with If-Modified-Since (whatever its date: a ceiling, not a validator) gets the 304 the
// door writes, the same headers without Content-Type and body. GET /.cpu answers the process's CPU time so far in
// microseconds.

/**
 * @param {Map<string, Buffer>} files
 * @param {Record<string, Record<string, string>>} answerHeaders
 * @returns {(request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse) => void}
 */
export function bareNodeHandler(files, answerHeaders) {
  const asAnsweredPaths = new Map(
    Object.entries(answerHeaders).map(([urlPath, headers]) => [
      `/as-answered${urlPath}`,
      {
        bytes: files.get(urlPath),
        list: Object.entries(headers).flat(),
        notModifiedList: Object.entries(headers)
          .filter(([name]) => name !== 'content-type')
          .flat(),
      },
    ]),
  );
  const lastModified = new Date().toUTCString();
  return (request, response) => {
    if (request.url === '/.cpu') {
      const { user, system } = process.cpuUsage();
      response.end(String(user + system));
      return;
    }
    const asAnswered = asAnsweredPaths.get(request.url ?? '');
    if (asAnswered?.bytes && request.headers['if-modified-since'] !== undefined) {
      const list = asAnswered.notModifiedList.slice();
      list.push('x-request-id', randomUUID());
      response.writeHead(304, list);
      response.end();
      return;
    }
    if (asAnswered?.bytes) {
      const list = asAnswered.list.slice();
      list.push('x-request-id', randomUUID(), 'content-length', String(asAnswered.bytes.length));
      response.writeHead(200, list);
      response.end(asAnswered.bytes);
      return;
    }
    const bytes = files.get(request.url ?? '');
    if (!bytes) {
      response.writeHead(404, { 'content-length': 0 });
      response.end();
      return;
    }
    response.writeHead(200, {
      'content-type': request.url?.endsWith('.zip') ? 'application/zip' : 'application/json',
      'content-length': bytes.length,
      'last-modified': lastModified,
    });
    response.end(bytes);
  };
}

// The bench's ceiling of one Node.js process (scripts/bench/processes.ts startBareNode): a bare node:http server
// answering each URL path of BARE_NODE_FILES (JSON: path → file) with the file's bytes, read once into memory, and
// the headers a JSON answer needs, in one writeHead. Prints its port, serves until SIGTERM. GET /.cpu answers the
// process's CPU time so far in microseconds, so that the bench sets the CPU per request of the ceiling beside ours.
// `/as-answered<path>` answers the same bytes with the headers Packgate answered them with (BARE_NODE_ANSWER_HEADERS:
// JSON, path → name → value), a fresh request id and the length, as the warm door writes them: the ceiling of one
// Node.js process for the same answer, so that the bench tells what the door costs from what its headers cost.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const files = new Map(
  Object.entries(JSON.parse(process.env.BARE_NODE_FILES ?? '{}')).map(([urlPath, file]) => [
    urlPath,
    readFileSync(file),
  ]),
);
const answerHeaders = new Map(
  Object.entries(JSON.parse(process.env.BARE_NODE_ANSWER_HEADERS ?? '{}')).map(([urlPath, headers]) => [
    `/as-answered${urlPath}`,
    { bytes: files.get(urlPath), list: Object.entries(headers).flat() },
  ]),
);
const lastModified = new Date().toUTCString();
const server = createServer((request, response) => {
  if (request.url === '/.cpu') {
    const { user, system } = process.cpuUsage();
    response.end(String(user + system));
    return;
  }
  const asAnswered = answerHeaders.get(request.url ?? '');
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
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));

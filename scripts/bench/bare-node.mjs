// The bench's ceiling of one Node.js process (scripts/bench/processes.ts startBareNode): a bare node:http server
// answering each URL path of BARE_NODE_FILES (JSON: path → file) with the file's bytes, read once into memory, and
// `/as-answered<path>` with the headers Packgate answered them with (BARE_NODE_ANSWER_HEADERS: JSON, path → name →
// value), as bare-answers.mjs answers. Prints its port, serves until SIGTERM. GET /.cpu answers the process's CPU
// time so far in microseconds, so that the bench sets the CPU per request of the ceiling beside ours.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { bareNodeHandler } from './bare-answers.mjs';

const files = new Map(
  Object.entries(JSON.parse(process.env.BARE_NODE_FILES ?? '{}')).map(([urlPath, file]) => [
    urlPath,
    readFileSync(file),
  ]),
);
const server = createServer(bareNodeHandler(files, JSON.parse(process.env.BARE_NODE_ANSWER_HEADERS ?? '{}')));
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));

// Loaded into the built server by the door bench (`node --import` before main.js; bench/door-figures.ts), never by
// `npm start`: a bare node:http server inside Packgate's own process, on BENCH_BARE_IN_PORT, answering as the bare
// server does (bare-answers.mjs). It shares the process with the whole app (Fastify, the database driver, the realtime
// socket, the job runner) and answers nothing else, so the door beside it shows what the door costs in its process,
// and it beside the bare server in a process of its own what sharing the process costs.
//
// The answers are known only once the built server has answered them: the bench then writes them and a manifest to
// BENCH_BARE_IN_MANIFEST ({ files: path → file, answerHeaders: path → name → value }), which the first request reads.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { bareNodeHandler } from './bare-answers.mjs';

const port = Number(process.env.BENCH_BARE_IN_PORT);
const manifestPath = process.env.BENCH_BARE_IN_MANIFEST;

/** @type {((request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse) => void) | undefined} */
let handler;

function loadHandler() {
  if (!manifestPath) throw new Error('BENCH_BARE_IN_MANIFEST is not set');
  const { files, answerHeaders } = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const bytes = new Map(Object.entries(files).map(([urlPath, file]) => [urlPath, readFileSync(file)]));
  return bareNodeHandler(bytes, answerHeaders);
}

if (Number.isInteger(port) && port > 0) {
  const server = createServer((request, response) => {
    handler ??= loadHandler();
    handler(request, response);
  });
  server.keepAliveTimeout = 60_000;
  // Not listening fails the bench's requests to it (a refused connection), never the app it shares the process with.
  server.on('error', (error) => process.stderr.write(`bench: the bare server in this process: ${error.message}\n`));
  server.listen(port, '127.0.0.1');
  // The app's own shutdown closes its server; this one must not keep the process alive after it.
  server.unref();
}

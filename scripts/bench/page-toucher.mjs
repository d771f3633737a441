// What one page more per answer costs on this machine (bench/door-pages.ts): a bare node:http server answering every
// request with the same 17,746 bytes (a p2 file's size), after reading one byte from each of PAGE_TOUCHER_PAGES pages
// of a 64 MiB buffer, pages chosen spread over it and the same at every answer (so the bytes stay in the CPU's caches
// and what each page costs is finding it: its page walk after a system call emptied the TLB). Prints its port; GET
// /.cpu answers its CPU time in microseconds.
import { createServer } from 'node:http';

const BUFFER_PAGES = 16_384;
const touched = Number(process.env.PAGE_TOUCHER_PAGES ?? 0);
const body = Buffer.alloc(17_746, 'x');
const buffer = Buffer.alloc(BUFFER_PAGES * 4096, 1);
// A multiplicative hash spreads consecutive indexes over the buffer's pages, never two on one page.
const offsets = Array.from({ length: touched }, (_, index) => ((index * 2_654_435_761) % BUFFER_PAGES) * 4096);
let sum = 0;

const server = createServer((request, response) => {
  if (request.url === '/.cpu') {
    const { user, system } = process.cpuUsage();
    response.end(String(user + system));
    return;
  }
  for (const offset of offsets) sum += buffer[offset];
  response.writeHead(200, ['content-type', 'application/json', 'content-length', String(body.length)]);
  response.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.once('SIGTERM', () => server.close(() => process.exit(sum >= 0 ? 0 : 1)));

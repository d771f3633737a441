// Concurrent downloads of one URL for a while, in a process of its own: what autocannon cannot measure (it times
// out on bodies of megabytes). Prints {bytes, seconds, statuses} as JSON. Arguments: url, connections, seconds,
// then `name=value` headers.
import { Agent, request } from 'node:http';

const [url, connectionsText, secondsText, ...headerArgs] = process.argv.slice(2);
if (!url || !connectionsText || !secondsText) throw new Error('usage: download-load.ts url connections seconds');
const headers = Object.fromEntries(
  headerArgs.map((arg) => [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]),
);
const agent = new Agent({ keepAlive: true, maxSockets: Number(connectionsText) });
const target = new URL(url);
const deadline = performance.now() + Number(secondsText) * 1000;
const started = performance.now();
let bytes = 0;
const statuses: Record<string, number> = {};

function download(): Promise<void> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: target.hostname, port: target.port, path: target.pathname, headers, agent },
      (response) => {
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        response.on('end', () => {
          const status = String(response.statusCode);
          statuses[status] = (statuses[status] ?? 0) + 1;
          resolve();
        });
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

await Promise.all(
  Array.from({ length: Number(connectionsText) }, async () => {
    while (performance.now() < deadline) await download();
  }),
);
const seconds = (performance.now() - started) / 1000;
agent.destroy();
process.stdout.write(`${JSON.stringify({ bytes, seconds, statuses })}\n`);

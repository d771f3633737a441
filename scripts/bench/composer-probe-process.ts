import { Agent, request } from 'node:http';

// A holder's Composer client asking for one p2 file again and again, in a process of its own (forked by
// sync-growth.ts): how long a `composer update` waits for its metadata while the server is busy syncing. In the
// bench's process the probe's own timers would wait for the same event loop as the server it measures. Arguments:
// the port, the Host header and the token. It asks one request at a time, a pause between them, until its parent
// sends "stop", then reports the latencies over IPC and exits.

const [port, host, token, pathname] = process.argv.slice(2);
if (!port || !host || !token || !pathname) {
  throw new Error('usage: composer-probe-process.ts <port> <host> <token> <path>');
}

/** The pause between two requests: about 40 requests a second, far below what the server answers. */
const PAUSE_MS = 20;

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const latencies: number[] = [];
const failures: Record<string, number> = {};
let stopping = false;

function ask(): Promise<void> {
  return new Promise((resolve) => {
    const startedAt = performance.now();
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: Number(port),
        path: pathname,
        agent,
        headers: { host, authorization: `Bearer ${token}` },
      },
      (response) => {
        response.resume();
        // 'close' comes whether the answer ended or was cut off ('end' does not come for one cut off), so the probe
        // never waits for an answer that will not finish.
        response.on('close', () => {
          const outcome = response.complete ? String(response.statusCode) : 'cut off';
          if (outcome === '200') latencies.push(performance.now() - startedAt);
          else failures[outcome] = (failures[outcome] ?? 0) + 1;
          resolve();
        });
      },
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      failures[error.code ?? 'error'] = (failures[error.code ?? 'error'] ?? 0) + 1;
      resolve();
    });
    outgoing.end();
  });
}

process.on('message', (message) => {
  if (message === 'stop') stopping = true;
});

process.send!('ready');
while (!stopping) {
  await ask();
  await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
}
agent.destroy();
process.send!({ latencies, failures }, () => process.exit(0));

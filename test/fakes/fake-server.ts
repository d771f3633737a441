import type { Server, ServerResponse } from 'node:http';

// What the fakes of the code hosts and Stripe share beyond reading a request (read-body.ts): a JSON answer, and
// closing the server at the end of a test.

/** Answers `body` as JSON with `status`. */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Closes the fake's server, dropping its kept-alive connections first so that closing does not wait for them. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.closeAllConnections();
    server.close((error) => (error ? reject(error) : resolve()));
  });
}

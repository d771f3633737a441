import type { IncomingMessage } from 'node:http';

// What every fake HTTP server (GitHub, Stripe, a seller's webhook receiver) does first with a request.

/** The request's whole body as UTF-8 text. */
export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** The request's URL, resolved on the fake's `baseUrl`, and its whole body, for a fake that routes on both. */
export async function readRequest(request: IncomingMessage, baseUrl: string): Promise<{ url: URL; body: string }> {
  const body = await readBody(request);
  return { url: new URL(request.url ?? '/', baseUrl), body };
}

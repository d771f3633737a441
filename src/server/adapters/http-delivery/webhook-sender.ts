import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { type AddressResolver, type AllowList, parseTargetUrl, resolveTarget } from './public-address.js';

// One POST of a webhook to a seller's URL: checked address (public, or allowed), pinned for the connection, a
// deadline for the whole exchange, no redirects followed, and only the status kept of the answer (its body is
// read up to a bound and dropped).

export type WebhookPost = { url: string; headers: Record<string, string>; body: string };

/** An answer (any status) or why none came. */
export type WebhookPostResult =
  | { kind: 'answered'; status: number; durationMs: number }
  | { kind: 'failed'; error: string; durationMs: number };

export type WebhookSender = { post(request: WebhookPost, signal?: AbortSignal): Promise<WebhookPostResult> };

const MAX_RESPONSE_BYTES = 64 * 1024;

export function createWebhookSender(options: {
  resolver: AddressResolver;
  allowList: AllowList;
  timeoutMs: number;
  userAgent: string;
}): WebhookSender {
  return {
    async post(request, signal) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      let target: { address: string; family: 4 | 6 };
      let url: URL;
      try {
        url = parseTargetUrl(request.url);
        target = await resolveTarget(url, options.resolver, options.allowList);
      } catch (error) {
        return { kind: 'failed', error: error instanceof Error ? error.message : String(error), durationMs: elapsed() };
      }
      const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
        if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
        else callback(null, target.address, target.family);
      };
      const deadline = AbortSignal.timeout(options.timeoutMs);
      const abort = signal ? AbortSignal.any([signal, deadline]) : deadline;
      const client = url.protocol === 'https:' ? https : http;
      return new Promise<WebhookPostResult>((resolve) => {
        let settled = false;
        const finish = (result: WebhookPostResult) => {
          if (settled) return;
          settled = true;
          resolve(result);
        };
        const outgoing = client.request(
          url,
          {
            method: 'POST',
            lookup: pinned,
            signal: abort,
            headers: {
              ...request.headers,
              'content-type': 'application/json',
              'content-length': String(Buffer.byteLength(request.body)),
              'user-agent': options.userAgent,
            },
          },
          (response) => {
            let received = 0;
            response.on('data', (chunk: Buffer) => {
              received += chunk.length;
              if (received > MAX_RESPONSE_BYTES) response.destroy();
            });
            const done = () => finish({ kind: 'answered', status: response.statusCode ?? 0, durationMs: elapsed() });
            response.on('end', done);
            response.on('close', done);
            response.on('error', done);
          },
        );
        outgoing.on('error', (error) => {
          const message = deadline.aborted
            ? `No answer within ${options.timeoutMs >= 1000 ? `${Math.round(options.timeoutMs / 1000)} seconds` : `${options.timeoutMs} ms`}`
            : `Could not connect: ${error.message}`;
          finish({ kind: 'failed', error: message, durationMs: elapsed() });
        });
        outgoing.end(request.body);
      });
    },
  };
}

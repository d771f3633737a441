import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  type AddressResolver,
  resolveTarget,
  WebhookTargetError,
} from '../../adapters/http-delivery/public-address.js';

// The server's requests to a CI identity's issuer (its discovery document and its keys): the address checked as
// webhooks' are (public only, unless OIDC_ALLOW_PRIVATE_ISSUERS) and pinned for the connection, so a name that
// changes its answer between the check and the connection cannot lead elsewhere; no redirect followed; the whole
// exchange bounded in time by the caller's signal and the answer in size, so a slow or huge answer cannot hold an
// exchange request or the server's memory.

/** Why an issuer could not be asked: the exchange and the registration turn it into a message for the holder. */
export class IssuerFetchError extends Error {
  constructor(
    readonly reason: 'not-public' | 'not-resolved' | 'timeout' | 'too-large' | 'bad-answer' | 'unreachable',
    message: string,
  ) {
    super(message);
    this.name = 'IssuerFetchError';
  }
}

// With OIDC_ALLOW_PRIVATE_ISSUERS every address is allowed, as the webhook allow-list lets ranges through.
const EVERY_ADDRESS = ['0.0.0.0/0', '::/0'];

export type IssuerAccess = { resolver: AddressResolver; allowPrivate: boolean };

function abortError(signal: AbortSignal): IssuerFetchError {
  return signal.reason instanceof IssuerFetchError
    ? signal.reason
    : new IssuerFetchError('timeout', 'The issuer did not answer in time');
}

/** Rejects when the signal aborts: DNS lookups take no signal of their own. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The address to connect to for the issuer's URL, every resolved address public (or allowed). */
export async function checkIssuerAddress(
  url: URL,
  access: IssuerAccess,
  signal: AbortSignal,
): Promise<{ address: string; family: 4 | 6 }> {
  try {
    return await untilAborted(resolveTarget(url, access.resolver, access.allowPrivate ? EVERY_ADDRESS : []), signal);
  } catch (error) {
    if (!(error instanceof WebhookTargetError)) throw error;
    if (error.reason === 'not-resolved') {
      throw new IssuerFetchError('not-resolved', `The issuer's host name ${url.hostname} could not be resolved`);
    }
    throw new IssuerFetchError(
      'not-public',
      `The issuer ${url.origin} points to a private, loopback or link-local address; issuers must be on the public internet`,
    );
  }
}

/** GETs a JSON document from the issuer's origin within `maxBytes` and the signal's time. */
export async function fetchIssuerJson(
  url: URL,
  access: IssuerAccess,
  options: { signal: AbortSignal; maxBytes: number },
): Promise<unknown> {
  const target = await checkIssuerAddress(url, access, options.signal);
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  const body = await new Promise<Buffer>((resolve, reject) => {
    const fail = (error: IssuerFetchError) => {
      outgoing.destroy();
      reject(error);
    };
    const onAbort = () => fail(abortError(options.signal));
    const outgoing = client.request(
      url,
      { method: 'GET', lookup: pinned, headers: { accept: 'application/json' }, agent: false },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status !== 200) {
          response.resume();
          return fail(new IssuerFetchError('bad-answer', `${url.href} answered HTTP ${status}`));
        }
        const declared = Number(response.headers['content-length'] ?? 0);
        if (declared > options.maxBytes) return fail(tooLarge(url, options.maxBytes));
        const chunks: Buffer[] = [];
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > options.maxBytes) return fail(tooLarge(url, options.maxBytes));
          chunks.push(chunk);
        });
        response.on('end', () => resolve(Buffer.concat(chunks)));
        response.on('error', () => fail(new IssuerFetchError('unreachable', `${url.href} broke off its answer`)));
      },
    );
    outgoing.on('error', () => reject(new IssuerFetchError('unreachable', `${url.origin} could not be reached`)));
    outgoing.on('close', () => options.signal.removeEventListener('abort', onAbort));
    if (options.signal.aborted) return onAbort();
    options.signal.addEventListener('abort', onAbort, { once: true });
    outgoing.end();
  });
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    throw new IssuerFetchError('bad-answer', `${url.href} did not answer JSON`);
  }
}

function tooLarge(url: URL, maxBytes: number): IssuerFetchError {
  return new IssuerFetchError('too-large', `${url.href} answered more than ${Math.round(maxBytes / 1024)} KB`);
}

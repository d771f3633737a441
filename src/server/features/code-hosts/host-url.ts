import { lookup } from 'node:dns/promises';
import { withoutTrailingSlashes } from '../../adapters/codehost/host-api.js';
import { isPublicAddress } from '../../adapters/http-delivery/public-address.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';

// A self-managed host's address given by a seller (a GitLab instance): Packgate sends a credential there and calls
// it from the server, so it must be https and public, unless CODE_HOST_ALLOW_PRIVATE_NETWORKS lets the operator's
// own network in (tests serve hosts on loopback).

const MAX_URL_LENGTH = 500;

/** The URL without a trailing slash, query or fragment; BAD_REQUEST naming `field` when it is not usable. */
export async function assertReachableHostUrl(ctx: AppContext, raw: string, field: string): Promise<string> {
  const refuse = (why: string) =>
    new AppError('BAD_REQUEST', `${field}: ${why}`, {
      suggestion: 'Give the address you open GitLab at, e.g. https://gitlab.example.com.',
    });
  if (raw.length > MAX_URL_LENGTH) throw refuse('the address is too long.');
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw refuse('not a web address.');
  }
  const allowPrivate = ctx.config.codeHostAllowPrivateNetworks;
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw refuse('the address must start with https://.');
  }
  if (url.username || url.password) throw refuse('the address must not contain a user name or password.');
  if (url.search || url.hash) throw refuse('the address must not contain ? or #.');
  if (!allowPrivate) {
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    try {
      addresses = (await lookup(hostname, { all: true })).map((entry) => entry.address);
    } catch {
      throw refuse(`${hostname} could not be found.`);
    }
    if (addresses.length === 0 || !addresses.every(isPublicAddress)) {
      throw refuse(`${hostname} is on a private network, which Packgate does not reach.`);
    }
  }
  return `${url.origin}${withoutTrailingSlashes(url.pathname)}`;
}

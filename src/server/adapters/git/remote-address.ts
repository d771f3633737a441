import { isIP } from 'node:net';
import { type AddressResolver, isPublicAddress } from '../http-delivery/public-address.js';

// The private-network guard of repository URLs (issue 30 item 4): a seller's URL must not make the server read from
// the operator's own network. Every address the host resolves to must be public (webhooks' rule, the same table of
// special ranges), and git then connects to the checked address (curloptResolve, ssh HostName), so a DNS answer that
// changes between the check and the connection cannot move it. CODE_HOST_ALLOW_PRIVATE_NETWORKS lifts it.

export class PrivateAddressError extends Error {
  constructor(
    readonly reason: 'not-public' | 'not-resolved',
    message: string,
  ) {
    super(message);
    this.name = 'PrivateAddressError';
  }
}

/**
 * The address git must connect to for `url`, every one of the host's addresses checked; undefined when private
 * networks are allowed (git resolves the name itself then).
 */
export async function checkRemoteAddress(
  url: URL,
  resolver: AddressResolver,
  allowPrivateNetworks: boolean,
): Promise<string | undefined> {
  if (allowPrivateNetworks) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const addresses = isIP(host) ? [host] : await resolver.resolve(host);
  if (addresses.length === 0) {
    throw new PrivateAddressError('not-resolved', `The host name ${host} could not be resolved.`);
  }
  if (addresses.some((address) => !isPublicAddress(address))) {
    throw new PrivateAddressError(
      'not-public',
      `${host} points at a private, loopback or link-local address, which Packgate does not connect to.`,
    );
  }
  return addresses[0];
}

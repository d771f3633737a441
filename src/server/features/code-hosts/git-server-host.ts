import { GitServerCodeHost } from '../../adapters/codehost/git-server-code-host.js';
import { createAddressResolver } from '../../adapters/http-delivery/public-address.js';
import type { AppContext } from '../../context.js';

/** The host that reads any git server, guarded by CODE_HOST_ALLOW_PRIVATE_NETWORKS and resolving with DNS_SERVERS. */
export function gitServerHost(ctx: AppContext): GitServerCodeHost {
  return new GitServerCodeHost({
    resolver: createAddressResolver(ctx.config.dnsServers),
    allowPrivateNetworks: ctx.config.codeHostAllowPrivateNetworks,
  });
}

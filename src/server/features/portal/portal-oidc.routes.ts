import { oidcTrust, oidcTrustIdParams, oidcTrustInput, oidcTrustList } from '../../../contract/oidc-trusts.js';
import type { AppContext } from '../../context.js';
import type { RouteDeclarer } from '../../http/guarded-routes.js';
import { findPrincipal } from '../../http/principal.js';
import * as trusts from '../credentials/oidc-trusts.service.js';
import * as portal from './portal.service.js';

// The holder's trusted CI identities in the portal (issue 32 item 3). Registered inside the portal's scope
// (portal.routes.ts), whose hooks load the signed-in holder of this host and check CSRF on every change.

/** `holderApi` declares routes behind the portal's signed-in holder guard. */
export async function portalOidcRoutes(holderApi: RouteDeclarer, ctx: AppContext): Promise<void> {
  holderApi.get(
    '/api/portal/oidc-trusts',
    { noStore: true, schema: { response: { 200: oidcTrustList } } },
    async (request) => trusts.listOidcTrusts(ctx, portal.requireHolder(findPrincipal(request)).customerId),
  );

  holderApi.post(
    '/api/portal/oidc-trusts',
    { schema: { body: oidcTrustInput, response: { 201: oidcTrust } } },
    async (request) => {
      const holder = portal.requireHolder(findPrincipal(request));
      const actor = holder;
      return trusts.createOidcTrust(ctx, actor, holder.customerId, request.body, 'holder');
    },
  );

  holderApi.delete(
    '/api/portal/oidc-trusts/:trustId',
    { schema: { params: oidcTrustIdParams, response: { 200: oidcTrust } } },
    async (request) => {
      const holder = portal.requireHolder(findPrincipal(request));
      return trusts.deleteOidcTrust(ctx, holder, holder.customerId, request.params.trustId);
    },
  );
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { oidcTrust, oidcTrustIdParams, oidcTrustInput, oidcTrustList } from '../../../contract/oidc-trusts.js';
import type { AppContext } from '../../context.js';
import { findPrincipal } from '../../http/principal.js';
import * as trusts from '../credentials/oidc-trusts.service.js';
import * as portal from './portal.service.js';

// The holder's trusted CI identities in the portal (issue 32 item 3). Registered inside the portal's scope
// (portal.routes.ts), whose hooks load the signed-in holder of this host and check CSRF on every change.

type SignedInGuard = (request: FastifyRequest) => Promise<void>;

export async function portalOidcRoutes(app: FastifyInstance, ctx: AppContext, signedIn: SignedInGuard): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/portal/oidc-trusts',
    { schema: { response: { 200: oidcTrustList } }, onRequest: signedIn },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return trusts.listOidcTrusts(ctx, portal.requireHolder(findPrincipal(request)).customerId);
    },
  );

  api.post(
    '/api/portal/oidc-trusts',
    { schema: { body: oidcTrustInput, response: { 201: oidcTrust } }, onRequest: signedIn },
    async (request, reply) => {
      const holder = portal.requireHolder(findPrincipal(request));
      const actor = holder;
      const created = await trusts.createOidcTrust(ctx, actor, holder.customerId, request.body, 'holder');
      return reply.status(201).send(created);
    },
  );

  api.delete(
    '/api/portal/oidc-trusts/:trustId',
    { schema: { params: oidcTrustIdParams, response: { 200: oidcTrust } }, onRequest: signedIn },
    async (request) => {
      const holder = portal.requireHolder(findPrincipal(request));
      return trusts.deleteOidcTrust(ctx, holder, holder.customerId, request.params.trustId);
    },
  );
}

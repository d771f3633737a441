import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { entityId } from '../../../contract/ids.js';
import {
  acceptInvitationInput,
  acceptInvitationResponse,
  createInvitationInput,
  invitationPreviewQuery,
  invitationPreviewSchema,
  type OrganizationRole,
  organizationSummarySchema,
  organizationsSchema,
  switchOrganizationInput,
  teamInvitationSchema,
  teamInvitationsSchema,
  teamMemberSchema,
  teamMembersSchema,
  updateMemberInput,
} from '../../../contract/team.js';
import type { AppContext } from '../../context.js';
import { sellerRoutes, signedInRoutes } from '../../http/guarded-routes.js';
import { signedInOf } from '../../http/principal.js';
import { startSessionInOrganization, switchSessionOrganization } from '../../http/session-organization.js';
import { firstFactorSessionOptions } from '../auth/second-factor.service.js';
import * as invitations from './invitations.service.js';
import * as teams from './teams.service.js';

// The Team page and the organisation switcher (issue 33, contract/team.ts): session cookie + CSRF like every seller
// route; the invitation link's preview and acceptance work without a session.

const memberParams = z.object({ memberId: entityId });
const invitationParams = z.object({ id: entityId });
/** A link is a secret: guessing one is refused long before it could succeed. */
const LINK_CHECKS = { max: 30, timeWindow: '15 minutes' };

export async function teamRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const sellerApi = sellerRoutes(app);
  const signedInApi = signedInRoutes(app);
  const noStore = { 'cache-control': 'no-store' };

  sellerApi.get(
    '/api/team/members',
    { permission: 'dashboard:read', schema: { response: { 200: teamMembersSchema } } },
    async (request) => teams.listMembers(ctx, signedInOf(request.principal)),
  );

  sellerApi.patch(
    '/api/team/members/:memberId',
    {
      permission: 'team:manage',
      schema: { params: memberParams, body: updateMemberInput, response: { 200: teamMemberSchema } },
    },
    async (request) =>
      teams.changeMemberRole(
        ctx,
        signedInOf(request.principal),
        request.params.memberId,
        request.body.role as OrganizationRole,
      ),
  );

  sellerApi.delete(
    '/api/team/members/:memberId',
    { permission: 'team:manage', schema: { params: memberParams } },
    async (request, reply) => {
      await teams.removeMember(ctx, signedInOf(request.principal), request.params.memberId);
      return reply.status(204).send();
    },
  );

  sellerApi.get(
    '/api/team/invitations',
    { permission: 'team:manage', schema: { response: { 200: teamInvitationsSchema } } },
    async (request) => ({ invitations: await invitations.listInvitations(ctx, signedInOf(request.principal)) }),
  );

  sellerApi.post(
    '/api/team/invitations',
    { permission: 'team:manage', schema: { body: createInvitationInput, response: { 201: teamInvitationSchema } } },
    async (request) => invitations.inviteMember(ctx, signedInOf(request.principal), request.body),
  );

  sellerApi.post(
    '/api/team/invitations/:id/resend',
    { permission: 'team:manage', schema: { params: invitationParams, response: { 200: teamInvitationSchema } } },
    async (request) => invitations.resendInvitation(ctx, signedInOf(request.principal), request.params.id),
  );

  sellerApi.delete(
    '/api/team/invitations/:id',
    { permission: 'team:manage', schema: { params: invitationParams } },
    async (request, reply) => {
      await invitations.withdrawInvitation(ctx, signedInOf(request.principal), request.params.id);
      return reply.status(204).send();
    },
  );

  api.get(
    '/api/team/invitations/preview',
    {
      config: { rateLimit: LINK_CHECKS },
      schema: { querystring: invitationPreviewQuery, response: { 200: invitationPreviewSchema } },
    },
    async (request, reply) => {
      reply.headers(noStore);
      return invitations.previewInvitation(ctx, request.query.token);
    },
  );

  api.post(
    '/api/team/invitations/accept',
    {
      config: { rateLimit: LINK_CHECKS },
      schema: { body: acceptInvitationInput, response: { 200: acceptInvitationResponse } },
    },
    async (request, reply) => {
      const accepted = await invitations.acceptInvitation(ctx, request.body.token, request.auth);
      if (request.auth) await switchSessionOrganization(ctx, request, accepted.organization.id);
      else {
        // The link proves the address only: a person with a second factor still passes it, as after any e-mailed link.
        const options = await firstFactorSessionOptions(ctx, accepted.person, 'link');
        await startSessionInOrganization(ctx, request, reply, accepted.person.id, accepted.organization.id, options);
      }
      return { organization: accepted.organization };
    },
  );

  signedInApi.get('/api/organizations', { schema: { response: { 200: organizationsSchema } } }, async (request) => ({
    organizations: await teams.listOrganizations(ctx, signedInOf(request.principal)),
  }));

  signedInApi.post(
    '/api/organizations/current',
    {
      schema: { body: switchOrganizationInput, response: { 200: organizationSummarySchema } },
    },
    async (request) => {
      const chosen = await teams.chooseOrganization(ctx, signedInOf(request.principal), request.body.organizationId);
      await switchSessionOrganization(ctx, request, chosen.id);
      return chosen;
    },
  );
}

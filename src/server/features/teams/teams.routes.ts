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
import { authenticated } from '../../http/guards.js';
import { ANY_SIGNED_IN } from '../../http/permissions.js';
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
  const noStore = { 'cache-control': 'no-store' };

  api.get(
    '/api/team/members',
    {
      config: { permission: 'dashboard:read' },
      schema: { response: { 200: teamMembersSchema } },
      onRequest: authenticated,
    },
    async (request) => teams.listMembers(ctx, signedInOf(request.principal)),
  );

  api.patch(
    '/api/team/members/:memberId',
    {
      config: { permission: 'team:manage' },
      schema: { params: memberParams, body: updateMemberInput, response: { 200: teamMemberSchema } },
      onRequest: authenticated,
    },
    async (request) =>
      teams.changeMemberRole(
        ctx,
        signedInOf(request.principal),
        request.params.memberId,
        request.body.role as OrganizationRole,
      ),
  );

  api.delete(
    '/api/team/members/:memberId',
    { config: { permission: 'team:manage' }, schema: { params: memberParams }, onRequest: authenticated },
    async (request, reply) => {
      await teams.removeMember(ctx, signedInOf(request.principal), request.params.memberId);
      return reply.status(204).send();
    },
  );

  api.get(
    '/api/team/invitations',
    {
      config: { permission: 'team:manage' },
      schema: { response: { 200: teamInvitationsSchema } },
      onRequest: authenticated,
    },
    async (request) => ({ invitations: await invitations.listInvitations(ctx, signedInOf(request.principal)) }),
  );

  api.post(
    '/api/team/invitations',
    {
      config: { permission: 'team:manage' },
      schema: { body: createInvitationInput, response: { 201: teamInvitationSchema } },
      onRequest: authenticated,
    },
    async (request, reply) =>
      reply.status(201).send(await invitations.inviteMember(ctx, signedInOf(request.principal), request.body)),
  );

  api.post(
    '/api/team/invitations/:id/resend',
    {
      config: { permission: 'team:manage' },
      schema: { params: invitationParams, response: { 200: teamInvitationSchema } },
      onRequest: authenticated,
    },
    async (request) => invitations.resendInvitation(ctx, signedInOf(request.principal), request.params.id),
  );

  api.delete(
    '/api/team/invitations/:id',
    { config: { permission: 'team:manage' }, schema: { params: invitationParams }, onRequest: authenticated },
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

  api.get(
    '/api/organizations',
    {
      config: { permission: ANY_SIGNED_IN },
      schema: { response: { 200: organizationsSchema } },
      onRequest: authenticated,
    },
    async (request) => ({ organizations: await teams.listOrganizations(ctx, signedInOf(request.principal)) }),
  );

  api.post(
    '/api/organizations/current',
    {
      config: { permission: ANY_SIGNED_IN },
      schema: { body: switchOrganizationInput, response: { 200: organizationSummarySchema } },
      onRequest: authenticated,
    },
    async (request) => {
      const chosen = await teams.chooseOrganization(ctx, signedInOf(request.principal), request.body.organizationId);
      await switchSessionOrganization(ctx, request, chosen.id);
      return chosen;
    },
  );
}

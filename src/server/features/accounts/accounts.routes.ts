import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountStatusSchema, closeAccountInput } from '../../../contract/account.js';
import type { AppContext } from '../../context.js';
import { authenticated } from '../../http/guards.js';
import { ANY_SIGNED_IN } from '../../http/permissions.js';
import * as accounts from './accounts.service.js';

// The Settings page's account routes (issue 35 item 5): session cookie + CSRF like every seller route. Exporting and
// closing need `organization:manage`, which only the organisation's owner holds (contract/team.ts).

export async function accountRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/account',
    {
      config: { permission: ANY_SIGNED_IN },
      schema: { response: { 200: accountStatusSchema } },
      onRequest: authenticated,
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return accounts.presentAccountStatus(ctx, request.seller);
    },
  );

  api.get(
    '/api/account/export',
    { config: { permission: 'organization:manage' }, onRequest: authenticated },
    async (request, reply) => {
      const archive = await accounts.exportAccount(ctx, request.seller);
      return reply.headers(accounts.exportDownloadHeaders(archive)).send(archive.stream);
    },
  );

  api.post(
    '/api/account/close',
    {
      config: { permission: 'organization:manage' },
      schema: { body: closeAccountInput, response: { 200: accountStatusSchema.extend({ success: z.literal(true) }) } },
      onRequest: authenticated,
    },
    async (request) => {
      const account = request.seller;
      const closed = await accounts.closeAccount(ctx, request.principal, account, request.body.confirmSlug);
      return {
        success: true as const,
        ...accounts.presentAccountStatus(ctx, { ...account, ...closed }),
      };
    },
  );
}

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { accountStatusSchema, closeAccountInput } from '../../../contract/account.js';
import type { AppContext } from '../../context.js';
import { sellerRoutes, signedInRoutes } from '../../http/guarded-routes.js';
import * as accounts from './accounts.service.js';

// The Settings page's account routes (issue 35 item 5): session cookie + CSRF like every seller route. Exporting and
// closing need `organization:manage`, which only the organisation's owner holds (contract/team.ts).

export async function accountRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sellerApi = sellerRoutes(app);

  signedInRoutes(app).get(
    '/api/account',
    { noStore: true, schema: { response: { 200: accountStatusSchema } } },
    async (request) => accounts.presentAccountStatus(ctx, request.seller),
  );

  sellerApi.get('/api/account/export', { permission: 'organization:manage' }, async (request, reply) => {
    const archive = await accounts.exportAccount(ctx, request.seller);
    return reply.headers(accounts.exportDownloadHeaders(archive)).send(archive.stream);
  });

  sellerApi.post(
    '/api/account/close',
    {
      permission: 'organization:manage',
      schema: { body: closeAccountInput, response: { 200: accountStatusSchema.extend({ success: z.literal(true) }) } },
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

import type { FastifyInstance } from 'fastify';
import { LEAKED_TOKEN_SETTING_PATH, leakedTokenSettingSchema } from '../../../contract/holder-tokens.js';
import type { AppContext } from '../../context.js';
import { sellerRoutes } from '../../http/guarded-routes.js';
import { getUserById, setLeakedTokenAction } from '../users/users.service.js';

// The seller's choice for tokens GitHub's secret scanning reports (issue 32 item 4): revoke at once (the default), or
// mark them leaked and keep them 24 hours while the holder replaces them. The users domain writes the column.

export async function leakedTokenSettingRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sellerApi = sellerRoutes(app);

  sellerApi.get(
    LEAKED_TOKEN_SETTING_PATH,
    { permission: 'customers:read', schema: { response: { 200: leakedTokenSettingSchema } } },
    async (request) => ({ leakedTokenAction: (await getUserById(ctx, request.seller.id)).leakedTokenAction }),
  );

  sellerApi.put(
    LEAKED_TOKEN_SETTING_PATH,
    {
      permission: 'organization:manage',
      schema: { body: leakedTokenSettingSchema, response: { 200: leakedTokenSettingSchema } },
    },
    async (request) => {
      const updated = await setLeakedTokenAction(ctx, request.seller.id, request.body.leakedTokenAction);
      return { leakedTokenAction: updated.leakedTokenAction };
    },
  );
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createLocalAdminInput,
  createLocalAdminResponse,
  LOCAL_ADMIN_ADMINS_PATH,
  localAdminList,
} from '../../../contract/local-admin.js';
import type { AppContext } from '../../context.js';
import { createAdminLocally, createLocalAdminChannel, listAdminsLocally } from './local-admin.service.js';

/** The loopback channel of `npm run admin` (see local-admin.service.ts); the file lives while the server listens. */
export async function localAdminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const channel = createLocalAdminChannel(ctx);
  app.server.once('listening', () => {
    const address = app.server.address();
    if (address && typeof address === 'object') channel.publish(address);
  });
  app.addHook('onClose', async () => channel.withdraw());

  // Decided before the body is parsed: a caller without the secret learns nothing of the schema.
  const localOnly = async (request: FastifyRequest) =>
    channel.authorize({
      remoteAddress: request.socket.remoteAddress,
      localAddress: request.socket.localAddress,
      headers: request.headers,
    });

  api.get(LOCAL_ADMIN_ADMINS_PATH, { schema: { response: { 200: localAdminList } }, onRequest: localOnly }, async () =>
    listAdminsLocally(ctx),
  );

  api.post(
    LOCAL_ADMIN_ADMINS_PATH,
    { schema: { body: createLocalAdminInput, response: { 200: createLocalAdminResponse } }, onRequest: localOnly },
    async (request) => createAdminLocally(ctx, request.body.email),
  );
}

import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  createLocalAdminInput,
  createLocalAdminResponse,
  LOCAL_ADMIN_ADMINS_PATH,
  LOCAL_ADMIN_BACKUP_PATH,
  localAdminList,
} from '../../../contract/local-admin.js';
import type { AppContext } from '../../context.js';
import { databaseKindOf } from '../../db/client.js';
import { AppError } from '../../http/errors.js';
import { routesGuardedBy } from '../../http/guarded-routes.js';
import { BackupError, prepareBackup } from '../backup/backup.service.js';
import { createAdminLocally, createLocalAdminChannel, listAdminsLocally } from './local-admin.service.js';

/** The loopback channel of `npm run admin` (see local-admin.service.ts); the file lives while the server listens. */
export async function localAdminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
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
  const localApi = routesGuardedBy(app, localOnly);

  localApi.get(LOCAL_ADMIN_ADMINS_PATH, { schema: { response: { 200: localAdminList } } }, async () =>
    listAdminsLocally(ctx),
  );

  localApi.post(
    LOCAL_ADMIN_ADMINS_PATH,
    { schema: { body: createLocalAdminInput, response: { 200: createLocalAdminResponse } } },
    async (request) => createAdminLocally(ctx, request.body.email),
  );

  // `npm run admin -- backup` while the server runs on PGlite: only the process that holds the database can read it.
  // The snapshot is taken before the answer starts, so that a refusal is an error answer; the objects stream after.
  localApi.post(LOCAL_ADMIN_BACKUP_PATH, {}, async (request, reply) => {
    const prepared = await prepareBackup({
      db: ctx.db,
      kind: databaseKindOf(ctx.db),
      storage: ctx.storage,
      secretKey: ctx.config.secretKey,
      now: ctx.clock.now(),
    }).catch((error: unknown) => {
      if (error instanceof BackupError) throw new AppError('CONFLICT', error.message);
      throw error;
    });
    const body = new PassThrough();
    prepared.writeTo(body).catch((error: unknown) => {
      request.log.error({ err: error }, 'the backup failed while it was written');
      body.destroy(error as Error);
    });
    return reply
      .header('content-type', 'application/gzip')
      .header('x-packgate-backup-tables', String(prepared.tables.length))
      .send(body);
  });
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { csrfTokenResponse, publicConfigResponse } from '../../../contract/platform.js';
import type { AppContext } from '../../context.js';
import { pingDatabase } from '../../db/client.js';
import { csrfTokenFor } from '../../http/csrf.js';

export async function platformRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/health', async () => {
    await pingDatabase(ctx.db);
    return { status: 'ok' };
  });

  api.get('/api/csrf-token', { schema: { response: { 200: csrfTokenResponse } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { csrfToken: csrfTokenFor(ctx, request, reply) };
  });

  api.get('/api/public-config', { schema: { response: { 200: publicConfigResponse } } }, async () => ({
    publicUrl: ctx.config.publicUrl,
    composerDomain: ctx.config.composerDomain,
    githubSignIn: Boolean(ctx.config.github),
    supportEmail: ctx.config.supportEmail,
    debugRoutes: ctx.config.enableDebugRoutes,
  }));
}

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

  // A session still short of its second factor gets its own token too (issue 33): the verify step posts with it.
  const csrfRoute = { schema: { response: { 200: csrfTokenResponse } }, config: { secondFactorGate: 'both' as const } };
  api.get('/api/csrf-token', csrfRoute, async (request, reply) => {
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

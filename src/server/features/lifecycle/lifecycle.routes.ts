import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  abandonPackageInput,
  advisoryParams,
  advisorySchema,
  createAdvisoryInput,
  packageLifecycleSchema,
  versionParams,
  yankVersionInput,
} from '../../../contract/lifecycle.js';
import { packageIdParams } from '../../../contract/packages.js';
import type { AppContext } from '../../context.js';
import { authenticated } from '../../http/guards.js';
import * as lifecycle from './lifecycle.service.js';

// The seller's lifecycle actions on one of their packages (session + CSRF like every seller route); another
// seller's package answers 404.

export async function lifecycleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const noStore = { 'cache-control': 'no-store' };

  api.get(
    '/api/repositories/:id/lifecycle',
    {
      config: { permission: 'packages:read' },
      schema: { params: packageIdParams, response: { 200: packageLifecycleSchema } },
      onRequest: authenticated,
    },
    async (request, reply) => {
      reply.headers(noStore);
      return lifecycle.getLifecycle(ctx, request.seller.id, request.params.id);
    },
  );

  api.post(
    '/api/repositories/:id/advisories',
    {
      config: { permission: 'packages:write' },
      schema: { params: packageIdParams, body: createAdvisoryInput, response: { 201: advisorySchema } },
      onRequest: authenticated,
    },
    async (request, reply) => {
      const created = await lifecycle.publishAdvisory(ctx, request.seller.id, request.params.id, request.body);
      return reply.status(201).send(created);
    },
  );

  api.delete(
    '/api/repositories/:id/advisories/:advisoryId',
    {
      config: { permission: 'packages:write' },
      schema: { params: advisoryParams, response: { 200: packageLifecycleSchema } },
      onRequest: authenticated,
    },
    async (request) => lifecycle.withdrawAdvisory(ctx, request.seller.id, request.params.id, request.params.advisoryId),
  );

  api.put(
    '/api/repositories/:id/abandonment',
    {
      config: { permission: 'packages:write' },
      schema: { params: packageIdParams, body: abandonPackageInput, response: { 200: packageLifecycleSchema } },
      onRequest: authenticated,
    },
    async (request) => lifecycle.abandonPackage(ctx, request.seller.id, request.params.id, request.body),
  );

  api.delete(
    '/api/repositories/:id/abandonment',
    {
      config: { permission: 'packages:write' },
      schema: { params: packageIdParams, response: { 200: packageLifecycleSchema } },
      onRequest: authenticated,
    },
    async (request) => lifecycle.reviveAbandonedPackage(ctx, request.seller.id, request.params.id),
  );

  api.put(
    '/api/repositories/:id/versions/:version/yank',
    {
      config: { permission: 'packages:write' },
      schema: { params: versionParams, body: yankVersionInput, response: { 200: packageLifecycleSchema } },
      onRequest: authenticated,
    },
    async (request) =>
      lifecycle.yankVersion(ctx, request.seller.id, request.params.id, request.params.version, request.body),
  );

  api.delete(
    '/api/repositories/:id/versions/:version/yank',
    {
      config: { permission: 'packages:write' },
      schema: { params: versionParams, response: { 200: packageLifecycleSchema } },
      onRequest: authenticated,
    },
    async (request) => lifecycle.unyankVersion(ctx, request.seller.id, request.params.id, request.params.version),
  );
}
